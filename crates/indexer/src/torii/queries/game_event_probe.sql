-- One `keys` value of any GameEvent row, to tell an adventurer Torii has not indexed from a key
-- format this server cannot match. Placeholders as in game_events.sql.
SELECT keys FROM event_messages_historical
WHERE substr(model_id, instr(model_id, ':') + 1) IN (__MODEL_IDS__)
LIMIT 1
