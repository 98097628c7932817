-- An adventurer's GameEvent history from the historical event-message table (Torii keeps every
-- GameEvent there because its config lists `<ns>-GameEvent` under sql.historical), in chain
-- order: action count, then event id. Placeholders (formatted by the client, never agent text):
--   __KEYS__ `<0x + 64 hex adventurer id>/`, __FROM__ first action count, __LIMIT__ rows,
--   __SKIP__ events of that first action count already returned.
WITH history AS (
  SELECT data, event_id,
         CAST(json_extract(data, '$.action_count') AS INTEGER) AS action_count
  FROM event_messages_historical
  WHERE keys = '__KEYS__' AND json_extract(data, '$.details') IS NOT NULL
)
SELECT data, action_count,
       (SELECT COUNT(*) FROM history) AS total,
       (SELECT MAX(action_count) FROM history) AS last_action_count
FROM history
WHERE action_count >= __FROM__
ORDER BY action_count ASC, event_id ASC
LIMIT __LIMIT__ OFFSET __SKIP__
