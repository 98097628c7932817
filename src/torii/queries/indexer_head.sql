-- How far Torii has indexed: the highest block and its timestamp over the indexed contracts.
SELECT MAX(head) AS head, MAX(last_block_timestamp) AS last_block_timestamp FROM contracts
