import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// The check-in link's page for a person with a check-in PIN, over a real socket: the page asks
/// for it, refuses without it, and the duress PIN's pages are the PIN's, byte for byte (but for
/// the link itself).
@Suite("check-in links with a PIN")
struct CheckInLinkPINTests {
    @Test("the page asks for the PIN; none or a wrong one checks nothing in; the duress PIN's pages are the PIN's", arguments: Engine.allCases)
    func pinOnTheLinkPage(engine: Engine) async throws {
        let links = ResponderLinks(jwtSecret: "check-in-link-pin-tests-secret-of-32-bytes-or-more", baseURL: URL(fileURLWithPath: "/"))
        let test = try await TestDatabases.backend(engine) { $0.jwtSecret = "check-in-link-pin-tests-secret-of-32-bytes-or-more" }
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let browser = WebBrowser(server)
        var people: [(Caller, String)] = []
        for phone in ["+15550007611", "+15550007612"] {
            let person = Caller.user(try await test.signIn(phone).user.id)
            _ = try await test.backend.profiles.update(caller: person, ProfileUpdate(firstName: "Ann"))
            _ = try await test.backend.checkInPINs.set(caller: person, pin: "4821", duressPIN: "7350")
            let deadline = try await test.backend.checkIns.checkIn(caller: person, pin: "4821").deadline
            people.append((person, "/c/" + links.checkInToken(user: person.userID, deadline: deadline)))
        }
        test.clock.advance(by: 23 * 3600)
        let (_, annLink) = people[0]
        let (cat, catLink) = people[1]
        let bob = Caller.user(try await test.signIn("+15550007613").user.id)
        _ = try await test.backend.contacts.addContact(caller: cat, qrCodeID: try await test.backend.contacts.qrCode(caller: bob).id, roles: .responder)

        let page = try await browser.get(annLink)
        #expect(page.text.contains("name=\"pin\"") && page.text.contains("inputmode=\"numeric\""))
        let missing = try await browser.post(annLink, [])
        #expect(missing.status == 400 && missing.text.contains("This check-in needs your PIN"))
        let wrong = try await browser.post(annLink, [("pin", "1111")])
        #expect(wrong.status == 403 && wrong.text.contains("That is not your check-in PIN"))
        #expect(try await test.count("check_ins") == 2)

        let normal = try await browser.post(annLink, [("pin", "4821")])
        let duress = try await browser.post(catLink, [("pin", "7350")])
        #expect(normal.status == 303 && duress.status == 303)
        #expect(normal.header("Location") == annLink && duress.header("Location") == catLink)
        let normalAfter = try await browser.get(annLink)
        let duressAfter = try await browser.get(catLink)
        #expect(normalAfter.status == duressAfter.status && normalAfter.text == duressAfter.text, "the pages after are the same")
        #expect(try await test.count("check_ins") == 4)
        let warned = try await test.backend.notifications.notifications(caller: bob, limit: 10).filter { $0.type == .alertActivatedReceived }
        #expect(warned.count == 1)
    }
}
