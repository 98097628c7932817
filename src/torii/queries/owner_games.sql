-- One owner's games of one game contract, newest first (token ids are minted in increasing
-- order). Placeholders (formatted by the client, never agent text): __TOK__ token namespace,
-- __GAME__ padded game_token_systems address, __OWNER__ padded owner address, __BEFORE__ extra
-- condition on token_id (keyset paging), __LIMIT__ rows.
WITH owned AS (
  SELECT tm.id AS token_id,
         tm.game_over AS game_over,
         COALESCE(s.score, 0) AS score,
         pn.player_name AS player_name
  FROM "__TOK__-TokenMetadataUpdate" tm
  JOIN "__TOK__-GameRegistryUpdate" gr ON gr.id = tm.game_id
  JOIN "__TOK__-OwnersUpdate" o ON o.token_id = tm.id
  LEFT JOIN "__TOK__-TokenScoreUpdate" s ON s.id = tm.id
  LEFT JOIN "__TOK__-TokenPlayerNameUpdate" pn ON pn.id = tm.id
  WHERE gr.contract_address = '__GAME__' AND o.owner = '__OWNER__'
)
SELECT token_id, game_over, score, player_name,
       (SELECT COUNT(*) FROM owned) AS total
FROM owned
WHERE 1 = 1 __BEFORE__
ORDER BY token_id DESC
LIMIT __LIMIT__
