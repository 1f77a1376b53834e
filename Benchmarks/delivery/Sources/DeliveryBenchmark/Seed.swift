import LifeSignalBackend

/// Set-based seeding of `people` people whose deadline passed (ids 1…people) and their one
/// responder each (ids people+1…2·people): PostgreSQL's `generate_series`, SQLite's recursive
/// CTE. Every person signs in with a phone, so both get SMS (a missed check-in is urgent, and
/// SMS carries urgent messages by default); the responder also has a confirmed email and an
/// APNs device token, so their alert goes out on all three channels.
enum Seed {
    /// Device tokens are 64 hex digits starting `abcd`: the APNs stand-in fails tokens by their
    /// first four digits (`4100`, `5000`, …), and none of those start with a letter.
    static func statements(for dialect: SQLDialect, people: Int, now: Int) -> [String] {
        switch dialect {
        case .postgres:
            let id = "(lpad(to_hex(i), 8, '0') || '-0000-4000-8000-000000000000')::uuid"
            let peer = "(lpad(to_hex(i + \(people)), 8, '0') || '-0000-4000-8000-000000000000')::uuid"
            // Deadlines of the due fall in the last hour; responders' are a day away, beyond
            // every reminder window, so the sweep has exactly `people` escalations.
            let deadline = "to_timestamp(CASE WHEN i <= \(people) THEN \(now) - 1 - (i % 3600) ELSE \(now) + 86400 END)"
            let email = "CASE WHEN i > \(people) THEN 'responder' || i || '@example.com' END"
            return [
                """
                INSERT INTO auth_users (id, phone, email, email_confirmed_at, created_at, updated_at)
                SELECT \(id), (15550000000 + i)::text, \(email), CASE WHEN i > \(people) THEN now() END, now(), now()
                FROM generate_series(1, \(2 * people)) AS i
                """,
                """
                INSERT INTO users (id, phone, first_name, last_name, qr_code_id, last_check_in_at, check_in_deadline, created_at, updated_at)
                SELECT \(id), '+' || (15550000000 + i)::text, 'User', 'Number' || i, (lpad(to_hex(i), 8, '0') || '-0000-4000-9000-000000000000')::uuid,
                       \(deadline) - interval '1 day', \(deadline), now(), now()
                FROM generate_series(1, \(2 * people)) AS i
                """,
                """
                INSERT INTO contacts (user_id, contact_id, is_responder, is_dependent, added_at, updated_at)
                SELECT \(id), \(peer), true, false, now(), now() FROM generate_series(1, \(people)) AS i
                UNION ALL
                SELECT \(peer), \(id), false, true, now(), now() FROM generate_series(1, \(people)) AS i
                """,
                """
                INSERT INTO push_tokens (token, user_id, platform, created_at, updated_at)
                SELECT 'abcd' || lpad(to_hex(i), 60, '0'), \(peer), 'apns', now(), now() FROM generate_series(1, \(people)) AS i
                """,
                "ANALYZE auth_users", "ANALYZE users", "ANALYZE contacts", "ANALYZE push_tokens",
            ]
        case .sqlite:
            let series = "WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < %d) "
            let id = "printf('%08x-0000-4000-8000-000000000000', i)"
            let peer = "printf('%08x-0000-4000-8000-000000000000', i + \(people))"
            let moment = "(CASE WHEN i <= \(people) THEN \(now) - 1 - (i % 3600) ELSE \(now) + 86400 END)"
            func stamp(_ seconds: String) -> String { "strftime('%Y-%m-%dT%H:%M:%S', \(seconds), 'unixepoch') || '.000000+00:00'" }
            let current = stamp("\(now)")
            return [
                String(format: series, 2 * people) + """
                INSERT INTO auth_users (id, phone, email, email_confirmed_at, created_at, updated_at)
                SELECT \(id), 15550000000 + i, CASE WHEN i > \(people) THEN 'responder' || i || '@example.com' END,
                       CASE WHEN i > \(people) THEN \(current) END, \(current), \(current) FROM seq
                """,
                String(format: series, 2 * people) + """
                INSERT INTO users (id, phone, first_name, last_name, qr_code_id, last_check_in_at, check_in_deadline, created_at, updated_at)
                SELECT \(id), '+' || (15550000000 + i), 'User', 'Number' || i, printf('%08x-0000-4000-9000-000000000000', i),
                       \(stamp(moment + " - 86400")), \(stamp(moment)), \(current), \(current) FROM seq
                """,
                String(format: series, people) + """
                INSERT INTO contacts (id, user_id, contact_id, is_responder, is_dependent, added_at, updated_at)
                SELECT printf('%08x-0000-4000-a000-000000000000', i), \(id), \(peer), 1, 0, \(current), \(current) FROM seq
                UNION ALL
                SELECT printf('%08x-0000-4000-b000-000000000000', i), \(peer), \(id), 0, 1, \(current), \(current) FROM seq
                """,
                String(format: series, people) + """
                INSERT INTO push_tokens (token, user_id, platform, created_at, updated_at)
                SELECT printf('abcd%060x', i), \(peer), 'apns', \(current), \(current) FROM seq
                """,
                "ANALYZE",
            ]
        }
    }
}
