-- One owner's games of one game contract, newest first (token ids are minted in increasing
-- order), paged by token id. Numbers are compared through their 64-digit form (__NUM(...)__,
-- expanded by the client) so a Torii that writes u64 as 64 digits pages exactly like one that
-- writes 16. Placeholders (formatted by the client, never agent text): __TOK__ token namespace,
-- __GAME__ padded game_token_systems address, __OWNER__ padded owner address, __BEFORE__ extra
-- condition on token_key (keyset paging), __LIMIT__ rows.
WITH owned AS (
  SELECT tm.id AS token_id,
         __NUM(tm.id)__ AS token_key,
         tm.game_over AS game_over,
         COALESCE(s.score, '0x0') AS score,
         pn.player_name AS player_name
  FROM "__TOK__-TokenMetadataUpdate" tm
  JOIN "__TOK__-GameRegistryUpdate" gr ON gr.id = tm.game_id
  JOIN "__TOK__-OwnersUpdate" o ON o.token_id = tm.id
  LEFT JOIN "__TOK__-TokenScoreUpdate" s ON s.id = tm.id
  LEFT JOIN "__TOK__-TokenPlayerNameUpdate" pn ON pn.id = tm.id
  WHERE __NUM(gr.contract_address)__ = '__GAME__' AND __NUM(o.owner)__ = '__OWNER__'
)
SELECT token_id, game_over, score, player_name,
       (SELECT COUNT(*) FROM owned) AS total
FROM owned
WHERE 1 = 1 __BEFORE__
ORDER BY token_key DESC
LIMIT __LIMIT__
