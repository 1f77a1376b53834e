import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// The settings page's Web Push subscription: offered only when the server sends Web Push,
/// registered through `register-push-token`'s rule, refused without the session's form token.
@Suite("web app: Web Push subscription")
struct WebPushPageTests {
    static let subscription =
        #"{"endpoint":"http://127.0.0.1:9/push/ann","keys":{"p256dh":"BDmBRy4Qth8I6YFS1p3lxdFexPFuQ6pI7nt389_R0fVhX96Uw9V3S4XfsLojZTXZrWMzdZA_xRBp9R6KPPQx_d0","auth":"tBHItJI5svbpez7KI4CCXg"}}"#

    @Test("the page offers alerts with the server's key; the script's POST registers a web token once", arguments: Engine.allCases)
    func subscribe(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine) { $0.webPushEndpoints = WebPushEndpoints(hosts: [], allowsLoopbackHTTP: true) }
        let server = try await TestServer.start(test.backend) { $0.webPushPublicKey = "BPublicKeyForTheTest" }
        defer { Task { await server.stop() } }
        let browser = WebBrowser(server)
        _ = try await browser.signIn(test, phone: "+15550007501")
        let settings = try await browser.get("/settings")
        #expect(settings.text.contains("id=\"push\" data-key=\"BPublicKeyForTheTest\""))
        let token = try #require(settings.csrf)
        let json = ["Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"]

        let noToken = try await browser.send("POST", "/push/subscriptions", headers: json, body: Data(Self.subscription.utf8))
        #expect(noToken.status == 403)
        var crossSite = json
        crossSite["Sec-Fetch-Site"] = "cross-site"
        crossSite["X-CSRF-Token"] = token
        #expect(try await browser.send("POST", "/push/subscriptions", headers: crossSite, body: Data(Self.subscription.utf8)).status == 403)
        var good = json
        good["X-CSRF-Token"] = token
        let bad = try await browser.send("POST", "/push/subscriptions", headers: good, body: Data(#"{"endpoint":"http://10.1.2.3/x"}"#.utf8))
        #expect(bad.status == 400 && bad.text.contains("message"))
        #expect(try await test.count("push_tokens") == 0)

        let created = try await browser.send("POST", "/push/subscriptions", headers: good, body: Data(Self.subscription.utf8))
        #expect(created.status == 201, "\(created.text)")
        _ = try await browser.send("POST", "/push/subscriptions", headers: good, body: Data(Self.subscription.utf8))
        let rows = try await test.backend.database.query("SELECT platform FROM push_tokens")
        #expect(try rows.count == 1 && rows.first?.string("platform") == "web")
    }

    @Test("a server without Web Push offers none", arguments: [Engine.sqlite])
    func notOffered(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let browser = WebBrowser(server)
        _ = try await browser.signIn(test, phone: "+15550007502")
        #expect(!(try await browser.get("/settings").text.contains("id=\"push\"")))
    }
}
