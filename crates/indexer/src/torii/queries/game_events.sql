-- An adventurer's GameEvent history from the historical event-message table (Torii keeps every
-- GameEvent there because its config lists `<ns>-GameEvent` under sql.historical), in chain
-- order. Rows are those of the GameEvent model only (another single-key model's events share the
-- key), matched under every `keys` and `model_id` form Torii has written. Order: action count,
-- then the block and the event's index in the receipt, read as numbers from `event_id`
-- (`<block>:<tx>:<contract>:<index>`, the index `{:#04x}`, so "0x100" < "0xff" as text).
-- Placeholders (formatted by the client, never agent text): __KEYS__ the key forms,
-- __MODEL_IDS__ the selector forms (Torii v1.8 prefixes the world and `:`, dropped before comparing),
-- __FROM__ first action count, __LIMIT__ rows, __SKIP__ events of that action already returned.
WITH history AS (
  SELECT data, keys,
         CAST(json_extract(data, '$.action_count') AS INTEGER) AS action_count,
         __NUM(substr(event_id, 1, instr(event_id, ':') - 1))__ AS block_key,
         __NUM(substr(event_id, length(rtrim(event_id, '0123456789abcdefABCDEFx')) + 1))__ AS index_key
  FROM event_messages_historical
  WHERE keys IN (__KEYS__)
    AND substr(model_id, instr(model_id, ':') + 1) IN (__MODEL_IDS__)
)
SELECT data, keys, action_count,
       (SELECT COUNT(*) FROM history) AS total,
       (SELECT MAX(action_count) FROM history) AS last_action_count
FROM history
WHERE action_count >= __FROM__
ORDER BY action_count ASC, block_key ASC, index_key ASC
LIMIT __LIMIT__ OFFSET __SKIP__
