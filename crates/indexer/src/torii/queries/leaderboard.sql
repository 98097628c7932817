-- Leaderboard of one game contract from the game-token (Denshokan) models, as the official client
-- ranks it (Provable-Games/metagame-sdk src/sql/queries/sql.ts, gamesQuery): score descending,
-- token id ascending on ties. The rank is global within the scope; the filters only hide rows.
-- u64 columns (id, score, minted_by) are hex text whose width depends on the Torii version
-- (16 digits from v1.7.0, 64 before), so every number is compared through its 64-digit form
-- (__NUM(...)__ below, expanded by the client); a missing score is '0x0', never the integer 0
-- (SQLite sorts any text above any integer). Placeholders (formatted by the client, never agent
-- text): __TOK__ token namespace (relayer_0_0_1), __GAME__ padded game_token_systems address,
-- __SCOPE__ the minter condition (scope "dungeon": games minted by the dungeon, as the official
-- leaderboard counts them) or nothing, __FILTER__ extra conditions on `ranked`, __AFTER__ last
-- rank already returned, __LIMIT__ rows.
WITH games AS (
  SELECT tm.id AS token_id,
         __NUM(tm.id)__ AS token_key,
         COALESCE(s.score, '0x0') AS score,
         __NUM(COALESCE(s.score, '0x0'))__ AS score_key,
         tm.game_over AS game_over,
         o.owner AS owner,
         __NUM(o.owner)__ AS owner_key,
         pn.player_name AS player_name
  FROM "__TOK__-TokenMetadataUpdate" tm
  JOIN "__TOK__-GameRegistryUpdate" gr ON gr.id = tm.game_id
  LEFT JOIN "__TOK__-OwnersUpdate" o ON o.token_id = tm.id
  LEFT JOIN "__TOK__-TokenScoreUpdate" s ON s.id = tm.id
  LEFT JOIN "__TOK__-TokenPlayerNameUpdate" pn ON pn.id = tm.id
  LEFT JOIN "__TOK__-MinterRegistryUpdate" mr ON mr.id = tm.minted_by
  WHERE __NUM(gr.contract_address)__ = '__GAME__' __SCOPE__
),
ranked AS (
  SELECT games.*, ROW_NUMBER() OVER (ORDER BY score_key DESC, token_key ASC) AS rank
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
