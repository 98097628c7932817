-- Leaderboard of one game contract from the game-token (Denshokan) models, as the official client
-- ranks it: score (= the adventurer's xp) descending, token id ascending on ties. The rank is
-- global; the filters only hide rows. Placeholders (formatted by the client, never agent text):
--   __TOK__ token namespace (relayer_0_0_1), __GAME__ padded game_token_systems address,
--   __FILTER__ extra conditions on `ranked`, __AFTER__ last rank already returned, __LIMIT__ rows.
WITH games AS (
  SELECT tm.id AS token_id,
         COALESCE(s.score, 0) AS score,
         tm.game_over AS game_over,
         o.owner AS owner,
         pn.player_name AS player_name
  FROM "__TOK__-TokenMetadataUpdate" tm
  JOIN "__TOK__-GameRegistryUpdate" gr ON gr.id = tm.game_id
  LEFT JOIN "__TOK__-OwnersUpdate" o ON o.token_id = tm.id
  LEFT JOIN "__TOK__-TokenScoreUpdate" s ON s.id = tm.id
  LEFT JOIN "__TOK__-TokenPlayerNameUpdate" pn ON pn.id = tm.id
  WHERE gr.contract_address = '__GAME__'
),
ranked AS (
  SELECT games.*, ROW_NUMBER() OVER (ORDER BY score DESC, token_id ASC) AS rank
  FROM games
),
filtered AS (
  SELECT * FROM ranked WHERE 1 = 1 __FILTER__
)
SELECT rank, token_id, score, game_over, owner, player_name,
       (SELECT COUNT(*) FROM filtered) AS total
FROM filtered
WHERE rank > __AFTER__
ORDER BY rank
LIMIT __LIMIT__
