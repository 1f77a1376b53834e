-- pgbench baseline for the signed-in read (GET /rest/v1/notifications?select=*&order=created_at.desc&limit=20):
-- the server's statement inside a transaction that takes the caller's role and publishes their
-- claims, as lifesignal_run_as (migration 107) does, so row-level security filters the rows.
-- One round trip (`\;` joins the statements into one simple query), as the server's one call.
\set n random(1, :people)
BEGIN \; SELECT set_config('role', 'authenticated', true), set_config('request.jwt.claims', '{"sub":"' || md5('u' || :n)::uuid || '","role":"authenticated"}', true), set_config('timezone', 'UTC', true) \; SELECT coalesce(json_agg(_r), '[]')::text AS body, count(*) AS n, NULL::bigint AS total FROM (SELECT * FROM notifications ORDER BY created_at DESC LIMIT 20) _r \; COMMIT;
