-- pgbench baseline for POST /functions/v1/check-in: the statements the check-in rule runs
-- (lock the person, record the check-in, move the deadline), then the status read.
-- pgbench checks in people FIRST..people only: the server's check-ins take the people before
-- them, so that none of its requests finds a check-in pgbench made minutes ago (refused as too soon).
\set n random(:first, :people)
-- The session the token names, looked up before the call (FunctionRoutes; a person's first call).
SELECT user_id FROM auth_sessions WHERE id = md5('s' || :n)::uuid;
BEGIN;
SELECT last_check_in_at, check_in_interval_seconds, escalated_for, first_name, last_name, phone FROM users WHERE id = md5('u' || :n)::uuid FOR UPDATE;
INSERT INTO check_ins (id, user_id, checked_in_at, source) VALUES (gen_random_uuid(), md5('u' || :n)::uuid, now(), 'manual');
UPDATE users SET last_check_in_at = now(), check_in_deadline = now() + interval '1 day', escalated_for = NULL, updated_at = now() WHERE id = md5('u' || :n)::uuid;
END;
SELECT last_check_in_at, check_in_interval_seconds FROM users WHERE id = md5('u' || :n)::uuid;
