-- How far Torii has indexed the game's world: its own row of Torii's `contracts` table (Torii
-- also keeps rows for the ERC contracts it indexes, whose heads differ). `contract_type` is
-- 'WORLD' (dojoengine/torii v1.8.0 crates/proto/src/lib.rs, ContractType's Display).
-- Placeholders: __WORLD__ a condition on the world address when it is known, else nothing
-- (then the answer counts only when Torii indexes a single world).
SELECT head, last_block_timestamp,
       (SELECT COUNT(*) FROM contracts WHERE contract_type = 'WORLD') AS worlds
FROM contracts
WHERE contract_type = 'WORLD' __WORLD__
LIMIT 1
