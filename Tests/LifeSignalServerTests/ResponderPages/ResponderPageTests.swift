import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalSQLite
import LifeSignalServer
import LifeSignalTestSupport
import Testing

/// The responder link's page over a real socket, without a browser (issue 19 item 4): what it
/// shows, its headers, its two forms, and that every bad link shows nothing and changes nothing.
@Suite("responder pages")
struct ResponderPageTests {
    /// Words that would give the person away on a page that must show nothing.
    static let personal = ["Ann", "Tester", "555", "51.50735", "SOS", "needs help"]

    static func expectRevealsNothing(_ reply: PageReply, _ status: Int, _ what: Comment) {
        #expect(reply.status == status, what)
        #expect(reply.text.contains("This link is not available"), what)
        for word in personal { #expect(!reply.text.contains(word), "\(what): \(word)") }
        expectStrictHeaders(reply, what)
    }

    static func expectStrictHeaders(_ reply: PageReply, _ what: Comment) {
        let policy = reply.header("Content-Security-Policy") ?? ""
        #expect(policy.contains("default-src 'none'") && policy.contains("form-action 'self'") && policy.contains("frame-ancestors 'none'"), what)
        #expect(!policy.contains("script-src") && !policy.contains("unsafe-inline"), what)
        #expect(reply.header("Referrer-Policy") == "no-referrer", what)
        #expect(reply.header("Cache-Control") == "no-store", what)
        #expect(reply.header("X-Robots-Tag")?.contains("noindex") == true, what)
        #expect(reply.header("X-Content-Type-Options") == "nosniff", what)
        #expect(!reply.text.lowercased().contains("<script"), what)
    }

    @Test(
        "the page shows who, what and when, the last check-in, a call link, the map and two forms, with strict headers",
        arguments: Engine.allCases)
    func content(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine)
        defer { Task { await f.server.stop() } }
        let path = f.path(f.bob)
        #expect(path.count == 3 + 60, "\(path)")
        let page = try await f.send("GET", path)
        #expect(page.status == 200, "\(page.text)")
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        Self.expectStrictHeaders(page, "active page")
        #expect(page.text.contains("<html lang=\"en\">"))
        #expect(page.text.contains("<h1>Ann Tester needs help</h1>"))
        #expect(page.text.contains("SOS raised <time datetime=\"\(Timestamp.format(f.alert.activatedAt))\">"))
        #expect(page.text.contains("(2 minutes ago)"))
        // Ann checked in an hour before raising the alert.
        #expect(page.text.contains("<dt>Last check-in</dt>\n<dd><time datetime=\"\(Timestamp.format(f.alert.activatedAt.addingTimeInterval(-3600)))\">"))
        #expect(page.text.contains("href=\"tel:\(ResponderPageFixture.annPhone)\">Call Ann Tester</a>"))
        #expect(page.text.contains("href=\"https://www.openstreetmap.org/?mlat=51.50735&amp;mlon=-0.12776#map=16/51.50735/-0.12776\""))
        #expect(page.text.contains("<p>Within 25 m. Shared <time datetime=\"\(Timestamp.format(f.alert.activatedAt))\">"))
        #expect(page.text.contains("<button type=\"submit\" class=\"onit\">I&#39;m on it</button>"))
        #expect(page.text.contains("<button type=\"submit\" class=\"safe\">They&#39;re safe</button>"))
        #expect(!page.text.contains("action=\"http"), "the forms post to the page's own URL")
        // Cat's link is hers: the same page.
        #expect(try await f.send("GET", f.path(f.cat)).status == 200)
        // The metrics count the route's template, never a token.
        let metrics = try await f.server.scrapeMetrics()
        #expect(!metrics.text.contains(String(path.dropFirst(3))))
    }

    @Test("names the page shows are escaped, and a missed check-in says so", arguments: Engine.allCases)
    func escapingAndKind(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine)
        defer { Task { await f.server.stop() } }
        // Stored names are checked when written; the page escapes whatever is stored all the same.
        try await f.test.backend.database.query(
            SQL.raw(
                """
                UPDATE users SET first_name = '<b>Ann</b>', last_name = '"O''Hara" & co', emergency_note = '<script>x</script>'
                WHERE id = '\(f.ann.userID.rawValue.uuidString.lowercased())'
                """))
        try await f.test.backend.database.query(
            SQL.raw(
                "UPDATE alerts SET kind = 'missed_check_in', deadline = activated_at WHERE id = '\(f.alert.id.uuidString.lowercased())'"))
        let page = try await f.send("GET", f.path(f.bob))
        #expect(page.status == 200)
        #expect(page.text.contains("<h1>&lt;b&gt;Ann&lt;/b&gt; &quot;O&#39;Hara&quot; &amp; co missed a check-in</h1>"), "\(page.text)")
        #expect(!page.text.contains("<b>Ann") && !page.text.contains("<script"))
        #expect(page.text.contains("<dd>&lt;script&gt;x&lt;/script&gt;</dd>"))
        #expect(page.text.contains("Check-in missed: the deadline was <time"))
        #expect(!page.text.contains("Check-ins paused"))
        let until = f.test.clock.now.addingTimeInterval(7200)
        try await f.test.backend.database.query(
            SQL.raw(
                "UPDATE users SET paused_until = '\(Timestamp.format(until))' WHERE id = '\(f.ann.userID.rawValue.uuidString.lowercased())'"))
        let paused = try await f.send("GET", f.path(f.bob))
        #expect(paused.text.contains("<dt>Check-ins paused</dt>\n<dd>until <time datetime=\"\(Timestamp.format(until))\">"), "\(paused.text)")
    }

    @Test("I'm on it, then They're safe: each a 303 back to the page, which says so; the database agrees", arguments: Engine.allCases)
    func answers(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine)
        defer { Task { await f.server.stop() } }
        let path = f.path(f.bob)
        let token = String(path.dropFirst(3))
        let origin = "http://127.0.0.1:\(f.server.port)"
        // What Chromium sends from a page whose Referrer-Policy is no-referrer.
        let onIt = try await f.send("POST", path, form: "action=on_it", headers: ["Origin": "null", "Sec-Fetch-Site": "same-origin"])
        #expect(onIt.status == 303 && onIt.header("Location") == token, "\(onIt.status) \(onIt.text)")
        Self.expectStrictHeaders(onIt, "303")
        #expect(try await f.count("SELECT count(*) AS n FROM alert_responses WHERE responder_id = '\(f.bob.userID.rawValue.uuidString.lowercased())'") == 1)
        let after = try await f.send("GET", path)
        #expect(after.text.contains("You said you're on it"), "\(after.text)")
        #expect(!after.text.contains("class=\"onit\""), "no second I'm on it")
        // A second tap (or a replayed form) changes nothing and lands on the same page.
        let again = try await f.send("POST", path, form: "action=on_it")
        #expect(again.status == 303)
        #expect(try await f.count("SELECT count(*) AS n FROM alert_responses") == 1)
        // Cat sees that Bob is on it.
        #expect(try await f.send("GET", f.path(f.cat)).text.contains("Also on it: Bob Tester."))

        let safe = try await f.send("POST", path, form: "action=safe", headers: ["Origin": origin])
        #expect(safe.status == 303 && safe.header("Location") == token)
        let state = try await f.alertState()
        #expect(state.status == "resolved" && state.resolution == "marked_safe")
        let done = try await f.send("GET", path)
        #expect(done.status == 200 && done.text.contains("<h1>Marked safe</h1>"))
        for word in Self.personal { #expect(!done.text.contains(word), "the ended alert's page names nobody: \(word)") }
        // Cat's link died with the alert.
        Self.expectRevealsNothing(try await f.send("GET", f.path(f.cat)), 410, "another responder's link after the all-clear")
    }

    @Test(
        "tampered, unknown, expired, a stranger's, a dropped responder's and an ended alert's links show nothing",
        arguments: Engine.allCases)
    func badLinks(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine)
        defer { Task { await f.server.stop() } }
        let path = f.path(f.bob)
        var tampered = Array(path)
        tampered[10] = tampered[10] == "A" ? "B" : "A"
        Self.expectRevealsNothing(try await f.send("GET", String(tampered)), 404, "tampered")
        Self.expectRevealsNothing(try await f.send("GET", "/r/" + String(repeating: "A", count: 60)), 404, "made up")
        Self.expectRevealsNothing(try await f.send("GET", "/r/x"), 404, "short")
        Self.expectRevealsNothing(try await f.send("GET", f.path(f.bob, alert: UUID())), 410, "signed, for an alert that does not exist")
        Self.expectRevealsNothing(try await f.send("GET", f.path(f.eve)), 410, "signed for someone who is not a responder")
        Self.expectRevealsNothing(try await f.send("GET", f.path(f.ann)), 410, "signed for the person herself")
        // Another person's key (another server's secret) makes a link this server refuses.
        let foreign = ResponderLinks(jwtSecret: "another-secret-with-at-least-32-characters", baseURL: f.server.baseURL)
        Self.expectRevealsNothing(
            try await f.send("GET", foreign.url(alertID: f.alert.id, responder: f.bob.userID, now: f.test.clock.now).path), 404, "foreign key")
        // Expiry: a link made to end in a minute works, then does not.
        let short = f.links.url(alertID: f.alert.id, responder: f.bob.userID, expiresAt: f.test.clock.now.addingTimeInterval(60)).path
        #expect(try await f.send("GET", short).status == 200)
        f.test.clock.advance(by: 61)
        Self.expectRevealsNothing(try await f.send("GET", short), 404, "expired")
        // The default is 48 hours.
        #expect(try await f.send("GET", path).status == 200)
        // Dropped: Ann removes Bob; his link dies at once, well before it expires.
        try await f.test.backend.contacts.removeContact(caller: f.ann, contact: f.bob.userID)
        Self.expectRevealsNothing(try await f.send("GET", path), 410, "dropped responder")
        Self.expectRevealsNothing(try await f.send("POST", path, form: "action=on_it"), 410, "dropped responder's form")
        #expect(try await f.count("SELECT count(*) AS n FROM alert_responses") == 0)
        // Ended: Ann cancels; Cat's link shows nothing.
        #expect(try await f.send("GET", f.path(f.cat)).status == 200)
        _ = try await f.test.backend.alerts.cancel(caller: f.ann)
        Self.expectRevealsNothing(try await f.send("GET", f.path(f.cat)), 410, "ended alert")
        Self.expectRevealsNothing(try await f.send("POST", f.path(f.cat), form: "action=safe"), 410, "ended alert's form")
        #expect(try await f.alertState().resolution == "cancelled")
    }

    @Test("a POST without a valid token, from another site or with no known action changes nothing", arguments: Engine.allCases)
    func refusedPosts(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine)
        defer { Task { await f.server.stop() } }
        let path = f.path(f.bob)
        var tampered = Array(path)
        tampered[20] = tampered[20] == "A" ? "B" : "A"
        Self.expectRevealsNothing(try await f.send("POST", String(tampered), form: "action=safe"), 404, "tampered POST")
        Self.expectRevealsNothing(try await f.send("POST", f.path(f.eve), form: "action=on_it"), 410, "a stranger's signed link")
        let crossSite = try await f.send("POST", path, form: "action=safe", headers: ["Origin": "https://evil.example"])
        #expect(crossSite.status == 403)
        let nullOrigin = try await f.send("POST", path, form: "action=safe", headers: ["Origin": "null", "Sec-Fetch-Site": "cross-site"])
        #expect(nullOrigin.status == 403)
        let sameSite = try await f.send("POST", path, form: "action=safe", headers: ["Sec-Fetch-Site": "same-site"])
        #expect(sameSite.status == 403)
        let fetchSite = try await f.send("POST", path, form: "action=on_it", headers: ["Sec-Fetch-Site": "cross-site"])
        #expect(fetchSite.status == 403)
        let unknown = try await f.send("POST", path, form: "action=delete")
        #expect(unknown.status == 400)
        let none = try await f.send("POST", path)
        #expect(none.status == 400)
        let big = try await f.send("POST", path, form: "action=on_it&pad=" + String(repeating: "x", count: 4096))
        #expect(big.status == 413)
        #expect(try await f.count("SELECT count(*) AS n FROM alert_responses") == 0)
        #expect(try await f.alertState().status == "active")
        // An API key or a session is neither needed nor a way in: the token is the credential.
        #expect(try await f.server.request("GET", String(tampered), bearer: f.test.signIn("+15550005002").accessToken).status == 404)
    }

    @Test("no token reaches the server's log, at any level, whether the link works or not", arguments: [Engine.sqlite])
    func tokensNotLogged(engine: Engine) async throws {
        let logs = CapturedLogs()
        let f = try await ResponderPageFixture.make(engine, logger: logs.logger())
        defer { Task { await f.server.stop() } }
        let path = f.path(f.bob)
        let token = String(path.dropFirst(3))
        #expect(try await f.send("GET", path).status == 200)
        #expect(try await f.send("POST", path, form: "action=on_it").status == 303)
        // A character in the middle: the last one of a base64url signature carries only some
        // bits, and replacing it with "A" was no change at all when it already was one.
        var tampered = Array(path)
        tampered[10] = tampered[10] == "A" ? "B" : "A"
        #expect(try await f.send("GET", String(tampered)).status == 404)
        #expect(try await f.send("POST", path, form: "action=x", headers: ["Sec-Fetch-Site": "cross-site"]).status == 403)
        #expect(!logs.all.isEmpty, "the capture works")
        #expect(!logs.all.contains { $0.contains(token.prefix(40)) })
    }

    @Test("link pages are rate limited per client address like every anonymous route", arguments: [Engine.sqlite])
    func rateLimited(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine) {
            $0.clientLimits.anonymousPerMinute = 1
            $0.clientLimits.anonymousBurst = 3
        }
        defer { Task { await f.server.stop() } }
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(try await f.send("GET", "/r/" + String(repeating: "A", count: 60)).status) }
        #expect(statuses.contains(429), "\(statuses)")
        #expect(statuses.prefix(2).allSatisfy { $0 == 404 }, "\(statuses)")
    }

    @Test(
        "an invitation link names the inviter by first name and says how to accept; answered or forged, it shows nothing",
        arguments: Engine.allCases)
    func invitation(engine: Engine) async throws {
        let f = try await ResponderPageFixture.make(engine)
        defer { Task { await f.server.stop() } }
        let invitation = try await f.test.backend.contacts.invite(caller: f.ann, phone: "+15550005077", roles: .responder)
        let path = f.links.invitationURL(invitationID: invitation.id, now: f.test.clock.now).path
        #expect(path.hasPrefix("/i/"))
        let page = try await f.send("GET", path)
        #expect(page.status == 200, "\(page.text)")
        Self.expectStrictHeaders(page, "invitation")
        #expect(page.text.contains("<h1>Ann invited you to LifeSignal</h1>"))
        #expect(page.text.contains("Sign in with the phone number this message was sent to."))
        #expect(!page.text.contains("Tester") && !page.text.contains("555"), "first name only, no numbers")
        // A responder link's token is not an invitation token, and the reverse.
        #expect(try await f.send("GET", "/i/" + f.path(f.bob).dropFirst(3)).status == 404)
        #expect(try await f.send("GET", "/r/" + path.dropFirst(3)).status == 404)
        let invitee = Caller.user(try await f.test.signIn("+15550005077").user.id)
        try await f.test.backend.contacts.declineInvitation(caller: invitee, invitationID: invitation.id)
        let answered = try await f.send("GET", path)
        #expect(answered.status == 410 && answered.text.contains("This invitation is not available") && !answered.text.contains("Ann"))
    }
}
