import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// The person's own pages over a real socket: check in, SOS with its second step and location,
/// pause, settings; and that a form from anywhere else changes nothing.
@Suite("web app: home")
struct WebHomeTests {
    static func start(_ engine: Engine, phone: String) async throws -> (TestBackend, TestServer, WebBrowser) {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        let browser = WebBrowser(server)
        let reply = try await browser.signIn(test, phone: phone)
        guard reply.status == 303 else { throw TestEnvironmentError(description: "sign-in: \(reply.status) \(reply.text)") }
        return (test, server, browser)
    }

    @Test("checking in from the page counts once, shows the deadline, and a second tap says it counted", arguments: Engine.allCases)
    func checkIn(engine: Engine) async throws {
        let (test, server, browser) = try await Self.start(engine, phone: "+15550007101")
        defer { Task { await server.stop() } }
        let before = try await browser.get("/")
        #expect(before.text.contains("Check in to start your clock."))
        let done = try await browser.submit("/check-in")
        #expect(done.status == 303 && done.header("Location") == "/?said=checked-in")
        let after = try await browser.get("/?said=checked-in")
        #expect(after.text.contains("You&#39;re checked in. Thank you.") || after.text.contains("You're checked in. Thank you."))
        #expect(after.text.contains("id=\"countdown\" data-deadline=\""))
        #expect(after.text.contains("24 h left"), "the default interval is a day")
        let again = try await browser.submit("/check-in")
        #expect(again.header("Location") == "/?said=already")
        #expect(try await test.count("check_ins") == 1)
        // A said= the page does not know shows nothing: a link cannot put words on the page.
        #expect(!(try await browser.get("/?said=%3Cb%3Ehacked").text.contains("hacked")))
    }

    @Test("a check-in kept offline and sent again with its key counts once, even after the cooldown; the script gets JSON", arguments: Engine.allCases)
    func idempotentCheckIn(engine: Engine) async throws {
        let (test, server, browser) = try await Self.start(engine, phone: "+15550007108")
        defer { Task { await server.stop() } }
        let home = try await browser.get("/")
        let key = try #require(home.text.components(separatedBy: "name=\"key\" value=\"").dropFirst().first?.prefix(36))
        let token = try #require(home.csrf)
        let first = try await browser.post("/check-in", [("_csrf", token), ("key", String(key))], headers: ["Accept": "application/json"])
        #expect(first.status == 200 && first.header("Content-Type") == "application/json")
        #expect(first.text.contains("\"said\":\"checked-in\""))
        test.clock.advance(by: 3600)
        let again = try await browser.post("/check-in", [("_csrf", token), ("key", String(key))], headers: ["Accept": "application/json"])
        #expect(again.status == 200 && again.text.contains("\"said\":\"checked-in\""))
        #expect(try await test.count("check_ins") == 1, "one key, one check-in")
        // Another page's key is another check-in (past the cooldown).
        let other = try #require(try await browser.get("/").text.components(separatedBy: "name=\"key\" value=\"").dropFirst().first?.prefix(36))
        #expect(other != key)
        _ = try await browser.post("/check-in", [("_csrf", token), ("key", String(other))])
        #expect(try await test.count("check_ins") == 2)
        // The API's check-in takes the same keys.
        let user = try #require(try await test.backend.database.query("SELECT id FROM users").first?.uuid("id"))
        _ = try await test.backend.functions.call(
            "check-in", caller: .user(UserID(user)), body: Data("{\"idempotencyKey\":\"\(other)\"}".utf8))
        #expect(try await test.count("check_ins") == 2)
        await #expect(throws: DomainError.self) {
            _ = try await test.backend.functions.call("check-in", caller: .user(UserID(user)), body: Data(#"{"idempotencyKey":"no spaces allowed"}"#.utf8))
        }
    }

    @Test(
        "a form from another site, without the session's token, or with another session's token changes nothing",
        arguments: Engine.allCases)
    func forgedForms(engine: Engine) async throws {
        let (test, server, browser) = try await Self.start(engine, phone: "+15550007102")
        defer { Task { await server.stop() } }
        let token = try #require(try await browser.get("/").csrf)
        let crossSite = try await browser.post("/check-in", [("_csrf", token)], site: "cross-site")
        #expect(crossSite.status == 403)
        let otherOrigin = try await browser.post("/check-in", [("_csrf", token)], site: nil, headers: ["Origin": "https://evil.example"])
        #expect(otherOrigin.status == 403)
        let noToken = try await browser.post("/check-in", [])
        #expect(noToken.status == 403)
        let wrongToken = try await browser.post("/check-in", [("_csrf", String(token.reversed()))])
        #expect(wrongToken.status == 403)
        let stranger = WebBrowser(server)
        _ = try await stranger.signIn(test, phone: "+15550007103")
        let strangersToken = try #require(try await stranger.get("/").csrf)
        #expect(strangersToken != token)
        #expect(try await browser.post("/check-in", [("_csrf", strangersToken)]).status == 403)
        let sos = try await browser.post("/sos", [("_csrf", strangersToken), ("confirm", "yes")])
        #expect(sos.status == 403)
        #expect(try await test.count("check_ins") == 0)
        #expect(try await test.count("alerts") == 0)
        // Too large a form is refused before it is read.
        let large = try await browser.post("/check-in", [("_csrf", token), ("pad", String(repeating: "x", count: 20_000))])
        #expect(large.status == 413)
        #expect(try await test.count("check_ins") == 0)
        // The same form from the page itself (no Sec-Fetch-Site, same Origin) goes through.
        let same = try await browser.post("/check-in", [("_csrf", token)], site: nil, headers: ["Origin": "http://127.0.0.1:\(server.port)"])
        #expect(same.status == 303)
        #expect(try await test.count("check_ins") == 1)
    }

    @Test("the SOS needs its second step, carries the location the browser gave, and can be cancelled", arguments: Engine.allCases)
    func sos(engine: Engine) async throws {
        let (test, server, browser) = try await Self.start(engine, phone: "+15550007104")
        defer { Task { await server.stop() } }
        let confirm = try await browser.get("/sos")
        #expect(confirm.status == 200 && confirm.text.contains("Yes, send the SOS"))
        #expect(confirm.text.contains("You have no responders yet"))
        let unconfirmed = try await browser.submit("/sos", [], from: "/sos")
        #expect(unconfirmed.header("Location") == "/sos")
        #expect(try await test.count("alerts") == 0)
        let sent = try await browser.submit(
            "/sos", [("confirm", "yes"), ("latitude", "51.5"), ("longitude", "-0.12"), ("accuracy", "12"), ("located_at", "1700000000000")], from: "/sos")
        #expect(sent.header("Location") == "/?said=sos")
        let row = try await test.backend.database.query("SELECT latitude, longitude, accuracy_meters FROM alerts").first
        #expect(try row?.double("latitude") == 51.5 && row?.double("longitude") == -0.12 && row?.double("accuracy_meters") == 12)
        let home = try await browser.get("/")
        #expect(home.text.contains("Your SOS is active"))
        let cancelled = try await browser.submit("/sos/cancel")
        #expect(cancelled.header("Location") == "/?said=sos-cancelled")
        #expect(!(try await browser.get("/").text.contains("Your SOS is active")))
    }

    @Test("an SOS without a location, or with one out of range, goes without it", arguments: [Engine.sqlite])
    func sosWithoutLocation(engine: Engine) async throws {
        let (test, server, browser) = try await Self.start(engine, phone: "+15550007105")
        defer { Task { await server.stop() } }
        let sent = try await browser.submit("/sos", [("confirm", "yes"), ("latitude", "123"), ("longitude", "0")], from: "/sos")
        #expect(sent.header("Location") == "/?said=sos")
        let row = try await test.backend.database.query("SELECT latitude FROM alerts").first
        #expect(row != nil && row?["latitude"] == .null)
        // A browser's odd accuracy or clock loses that part, never the SOS or its place.
        _ = try await browser.submit("/sos/cancel")
        let odd = try await browser.submit(
            "/sos", [("confirm", "yes"), ("latitude", "10"), ("longitude", "20"), ("accuracy", "1e9"), ("located_at", "1e300")], from: "/sos")
        #expect(odd.header("Location") == "/?said=sos")
        let placed = try #require(try await test.backend.database.query("SELECT latitude, accuracy_meters FROM alerts WHERE status = 'active'").first)
        #expect(try placed.double("latitude") == 10 && placed["accuracy_meters"] == .null)
    }

    @Test("pause and resume; settings save through the API's rules and a refused value changes nothing", arguments: Engine.allCases)
    func pauseAndSettings(engine: Engine) async throws {
        let (test, server, browser) = try await Self.start(engine, phone: "+15550007106")
        defer { Task { await server.stop() } }
        let paused = try await browser.submit("/pause", [("hours", "24")])
        #expect(paused.header("Location") == "/?said=paused")
        #expect(try await browser.get("/").text.contains("Check-ins are paused until"))
        #expect(try await browser.submit("/resume").header("Location") == "/?said=resumed")
        #expect(!(try await browser.get("/").text.contains("Check-ins are paused until")))

        let saved = try await browser.submit(
            "/settings", [("first_name", "Ann"), ("last_name", "Tester"), ("interval_hours", "12"), ("reminder", "2_hours"), ("grace_minutes", "30")],
            from: "/settings")
        #expect(saved.header("Location") == "/settings?said=saved")
        let settings = try await browser.get("/settings")
        #expect(settings.text.contains("<option value=\"12\" selected>12 hours</option>"))
        #expect(try await browser.get("/").text.contains("<h1>Hello, Ann</h1>"))

        let refused = try await browser.submit(
            "/settings", [("first_name", "Bea"), ("last_name", ""), ("interval_hours", "0.1"), ("reminder", "2_hours"), ("grace_minutes", "30")],
            from: "/settings")
        #expect(refused.status == 400)
        let row = try #require(try await test.backend.database.query("SELECT first_name, check_in_interval_seconds FROM users").first)
        #expect(try row.string("first_name") == "Ann" && row.int("check_in_interval_seconds") == 12 * 3600)
    }

    @Test("every page carries the strict headers; the script is a file; assets answer 304 to their ETag", arguments: [Engine.sqlite])
    func headersAndAssets(engine: Engine) async throws {
        let (_, server, browser) = try await Self.start(engine, phone: "+15550007107")
        defer { Task { await server.stop() } }
        for path in ["/", "/people", "/settings", "/sos", "/qr", "/sign-in"] {
            let page = try await browser.get(path)
            let policy = page.header("Content-Security-Policy") ?? ""
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'"), "\(path)")
            #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(path)")
            #expect(page.header("Referrer-Policy") == "no-referrer", "\(path)")
            #expect(page.header("Permissions-Policy")?.contains("geolocation=(self)") == true, "\(path)")
            #expect(page.header("Cache-Control") == "no-store", "\(path)")
            #expect(!page.text.contains("<script>") && !page.text.contains("style=\""), "no inline script or style: \(path)")
            #expect(!page.text.contains("http://") && !page.text.contains("https://") || path == "/qr", "nothing loads from elsewhere: \(path)")
        }
        let script = try await browser.get("/assets/app.js")
        #expect(script.status == 200 && script.header("Content-Type")?.hasPrefix("text/javascript") == true)
        let etag = try #require(script.header("ETag"))
        #expect(try await browser.get("/assets/app.js", headers: ["If-None-Match": etag]).status == 304)
        var firstLoad = try await browser.get("/").text.utf8.count
        for path in ["/assets/app.css", "/assets/app.js", "/manifest.webmanifest", "/sw.js", "/assets/icon.svg"] {
            let asset = try await browser.get(path)
            #expect(asset.status == 200, "\(path)")
            firstLoad += asset.text.utf8.count
        }
        // The home page with everything it loads, uncompressed: well within 60 KB on the wire.
        #expect(firstLoad < 60 * 1024, "\(firstLoad) bytes")
    }
}
