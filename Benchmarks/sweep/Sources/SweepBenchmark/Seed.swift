import LifeSignalBackend

/// Set-based seeding: PostgreSQL's `generate_series`, SQLite's recursive CTE. Ids are
/// deterministic (`i` in hex), so a seeded database is the same on every run.
enum Seed {
    static func statements(for dialect: SQLDialect, users: Int, due: Int, epoch: Int) -> [String] {
        switch dialect {
        case .postgres:
            let id = "(lpad(to_hex(i), 8, '0') || '-0000-4000-8000-000000000000')::uuid"
            let peer = "(lpad(to_hex(i + \(due)), 8, '0') || '-0000-4000-8000-000000000000')::uuid"
            // Due people's deadlines fall in the last hour; everyone else's in the next 2–24 h,
            // beyond every reminder window, so exactly `due` people have work.
            let deadline = "to_timestamp(CASE WHEN i <= \(due) THEN \(epoch) - (i % 3600) ELSE \(epoch) + 7201 + (i % 79000) END)"
            return [
                "INSERT INTO auth_users (id, phone, created_at, updated_at) SELECT \(id), (15550000000 + i)::text, now(), now() FROM generate_series(1, \(users)) AS i",
                """
                INSERT INTO users (id, phone, first_name, last_name, qr_code_id, last_check_in_at, check_in_deadline, created_at, updated_at)
                SELECT \(id), '+' || (15550000000 + i)::text, 'User', 'Number' || i, (lpad(to_hex(i), 8, '0') || '-0000-4000-9000-000000000000')::uuid,
                       \(deadline) - interval '1 day', \(deadline), now(), now()
                FROM generate_series(1, \(users)) AS i
                """,
                """
                INSERT INTO contacts (user_id, contact_id, is_responder, is_dependent, added_at, updated_at)
                SELECT \(id), \(peer), true, false, now(), now() FROM generate_series(1, \(due)) AS i
                UNION ALL
                SELECT \(peer), \(id), false, true, now(), now() FROM generate_series(1, \(due)) AS i
                """,
                "INSERT INTO push_tokens (token, user_id, created_at, updated_at) SELECT 'token-' || i, \(peer), now(), now() FROM generate_series(1, \(due)) AS i",
                "ANALYZE users", "ANALYZE contacts", "ANALYZE push_tokens",
            ]
        case .sqlite:
            let series = "WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < %d) "
            let id = "printf('%08x-0000-4000-8000-000000000000', i)"
            let peer = "printf('%08x-0000-4000-8000-000000000000', i + \(due))"
            let moment = "(CASE WHEN i <= \(due) THEN \(epoch) - (i % 3600) ELSE \(epoch) + 7201 + (i % 79000) END)"
            let deadline = "strftime('%Y-%m-%dT%H:%M:%S', \(moment), 'unixepoch') || '.000000+00:00'"
            let last = "strftime('%Y-%m-%dT%H:%M:%S', \(moment) - 86400, 'unixepoch') || '.000000+00:00'"
            let now = "'2027-01-15T08:00:00.000000+00:00'"
            return [
                String(format: series, users) + "INSERT INTO auth_users (id, phone, created_at, updated_at) SELECT \(id), 15550000000 + i, \(now), \(now) FROM seq",
                String(format: series, users) + """
                INSERT INTO users (id, phone, first_name, last_name, qr_code_id, last_check_in_at, check_in_deadline, created_at, updated_at)
                SELECT \(id), '+' || (15550000000 + i), 'User', 'Number' || i, printf('%08x-0000-4000-9000-000000000000', i),
                       \(last), \(deadline), \(now), \(now) FROM seq
                """,
                String(format: series, due) + """
                INSERT INTO contacts (id, user_id, contact_id, is_responder, is_dependent, added_at, updated_at)
                SELECT printf('%08x-0000-4000-a000-000000000000', i), \(id), \(peer), 1, 0, \(now), \(now) FROM seq
                UNION ALL
                SELECT printf('%08x-0000-4000-b000-000000000000', i), \(peer), \(id), 0, 1, \(now), \(now) FROM seq
                """,
                String(format: series, due) + "INSERT INTO push_tokens (token, user_id, created_at, updated_at) SELECT 'token-' || i, \(peer), \(now), \(now) FROM seq",
                "ANALYZE",
            ]
        }
    }

    /// The deadline claim as `CheckInSweep.expire` runs it, with `$1` the sweep's now.
    static func explain(for dialect: SQLDialect) -> String {
        let claim = """
            UPDATE users SET expired_for = check_in_deadline, reminder_sent_for = check_in_deadline,
                escalated_for = CASE WHEN escalation_grace_seconds = 0 THEN check_in_deadline ELSE escalated_for END
            WHERE id IN (SELECT id FROM users
                         WHERE check_in_deadline <= $1 AND (expired_for IS NULL OR expired_for <> check_in_deadline)
                           AND (paused_until IS NULL OR paused_until <= $1)
                         ORDER BY check_in_deadline LIMIT 1000\(dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : ""))
            RETURNING id, first_name, last_name, phone
            """
        return (dialect == .postgres ? "EXPLAIN " : "EXPLAIN QUERY PLAN ") + claim
    }
}
