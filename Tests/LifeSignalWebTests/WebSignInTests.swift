import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// Signing in and out of the web app over a real socket: the code by SMS, the cookie, and
/// that a cookie stands for exactly the `/auth/v1` session it was made for.
@Suite("web app: signing in")
struct WebSignInTests {
    @Test("a code by SMS signs in; the cookie is HttpOnly, SameSite=Lax, Path=/; home shows the check-in button", arguments: Engine.allCases)
    func signInByCode(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let browser = WebBrowser(server)

        let first = try await browser.get("/")
        #expect(first.status == 200)
        #expect(first.text.contains("<h1>Sign in</h1>") && first.text.contains("action=\"/sign-in/code\""))

        let codePage = try await browser.post("/sign-in/code", [("phone", "+1 555 000 7001"), ("next", "/")])
        #expect(codePage.status == 200, "\(codePage.text)")
        #expect(codePage.text.contains("<strong>+15550007001</strong>"))
        #expect(codePage.text.contains("autocomplete=\"one-time-code\""))
        #expect(browser.cookie == nil, "no cookie before the code is checked")

        let wrong = try await browser.post("/sign-in/verify", [("phone", "+15550007001"), ("code", "000000"), ("next", "/")])
        #expect(wrong.status == 403)
        #expect(wrong.text.contains("role=\"alert\"") && browser.cookie == nil)

        guard let code = await test.sms.lastCode(for: try PhoneNumber("+15550007001")) else {
            Issue.record("no code sent")
            return
        }
        let signedIn = try await browser.post("/sign-in/verify", [("phone", "+15550007001"), ("code", code.value), ("next", "/")])
        #expect(signedIn.status == 303)
        #expect(signedIn.header("Location") == "/")
        let setCookie = signedIn.header("Set-Cookie") ?? ""
        #expect(setCookie.hasPrefix("lifesignal="))
        for attribute in ["HttpOnly", "SameSite=Lax", "Path=/"] { #expect(setCookie.contains(attribute), "\(setCookie)") }
        #expect(!setCookie.contains("Secure"), "plain http on 127.0.0.1 cannot keep a Secure cookie")

        let home = try await browser.get("/")
        #expect(home.status == 200)
        #expect(home.text.contains("I&#39;m OK — check in") || home.text.contains("I'm OK — check in"), "\(home.text)")
        #expect(home.csrf?.isEmpty == false)
        #expect(try await test.count("auth_sessions") == 1, "the web app's session is /auth/v1's")
    }

    @Test("a landline asks for the code by call: the page says so, the code is read out, and it signs in", arguments: [Engine.sqlite])
    func codeByCall(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let browser = WebBrowser(server)
        #expect(try await browser.get("/sign-in").text.contains("name=\"channel\" value=\"call\""))
        let codePage = try await browser.post("/sign-in/code", [("phone", "+15550007011"), ("next", "/"), ("channel", "call")])
        #expect(codePage.status == 200 && codePage.text.contains("We are calling"), "\(codePage.text)")
        let phone = try PhoneNumber("+15550007011")
        #expect(await test.sms.called == [phone])
        let code = try #require(await test.sms.lastCode(for: phone))
        let signedIn = try await browser.post("/sign-in/verify", [("phone", "+15550007011"), ("code", code.value), ("next", "/")])
        #expect(signedIn.status == 303 && browser.cookie != nil)
    }

    @Test("signing out ends the session: the old cookie no longer opens a page or posts a form", arguments: Engine.allCases)
    func signOut(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let browser = WebBrowser(server)
        _ = try await browser.signIn(test, phone: "+15550007002")
        let stolen = browser.cookie
        let token = try await browser.get("/").csrf ?? ""
        let out = try await browser.submit("/sign-out")
        #expect(out.status == 303 && out.header("Location") == "/sign-in")
        #expect(out.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(try await test.count("auth_sessions") == 0)

        browser.setCookie(stolen)
        let page = try await browser.get("/people")
        #expect(page.status == 303 && page.header("Location")?.hasPrefix("/sign-in") == true)
        let post = try await browser.post("/check-in", [("_csrf", token)])
        #expect(post.status == 303 && post.header("Location")?.hasPrefix("/sign-in") == true)
        #expect(try await test.count("check_ins") == 0)
    }

    @Test("a forged or altered cookie is no session", arguments: [Engine.sqlite])
    func forgedCookie(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let browser = WebBrowser(server)
        _ = try await browser.signIn(test, phone: "+15550007003")
        let real = try #require(browser.cookie)
        let victim = try await test.signIn("+15550007004")
        // The same tag with another person's id, and a cookie of someone else's session id.
        let parts = real.split(separator: ".")
        let swapped = [String(parts[0]), victim.user.id.rawValue.uuidString.lowercased(), String(parts[2])].joined(separator: ".")
        for cookie in [
            swapped, "lifesignal=" + victim.sessionID.uuidString.lowercased() + "." + victim.user.id.rawValue.uuidString.lowercased() + ".AAAA",
            "lifesignal=garbage",
        ] {
            browser.setCookie(cookie)
            let page = try await browser.get("/people")
            #expect(page.status == 303, "\(cookie)")
        }
    }

    @Test("a password change ends every other session, the browser's too", arguments: Engine.allCases)
    func passwordChangeEndsOthers(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let browser = WebBrowser(server)
        _ = try await browser.signIn(test, phone: "+15550007005")
        #expect(try await browser.get("/people").status == 200)
        // The same person signs in on another device and sets a password there.
        let other = try await test.signIn("+15550007005")
        _ = try await test.backend.auth.updateUser(
            id: other.user.id, email: nil, password: "correct horse battery", metadata: nil, keepingSession: other.sessionID)
        let page = try await browser.get("/people")
        #expect(page.status == 303 && page.header("Location")?.hasPrefix("/sign-in") == true)
    }

    @Test("email and password sign in; a wrong password and an unknown email read the same", arguments: [Engine.sqlite])
    func passwordSignIn(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        _ = try await test.backend.auth.signUp(email: "ann@example.com", password: "correct horse battery")
        let browser = WebBrowser(server)
        let wrong = try await browser.post("/sign-in/password", [("email", "ann@example.com"), ("password", "wrong horse"), ("next", "/")])
        let unknown = try await browser.post("/sign-in/password", [("email", "nobody@example.com"), ("password", "wrong horse"), ("next", "/")])
        #expect(wrong.status == 400 && unknown.status == 400)
        #expect(wrong.text.contains("That email and password do not match an account."))
        #expect(wrong.text == unknown.text)
        let right = try await browser.post("/sign-in/password", [("email", "ann@example.com"), ("password", "correct horse battery"), ("next", "/people")])
        #expect(right.status == 303 && right.header("Location") == "/people")
        #expect(try await browser.get("/people").status == 200)
    }

    @Test("next= only ever leads to a path on this server", arguments: [Engine.sqlite])
    func noOpenRedirect(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        for (index, next) in ["//evil.example/x", "https://evil.example", "/\\evil.example", "javascript:alert(1)", "/people"].enumerated() {
            let browser = WebBrowser(server)
            let reply = try await browser.signIn(test, phone: "+1555000710\(index)", next: next)
            #expect(reply.status == 303)
            #expect(reply.header("Location") == (next == "/people" ? "/people" : "/"), "\(next)")
        }
        // A page that needs a session sends there and back.
        let page = try await WebBrowser(server).get("/people")
        #expect(page.status == 303 && page.header("Location") == "/sign-in?next=%2Fpeople")
    }
}
