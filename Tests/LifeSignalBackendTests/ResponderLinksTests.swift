import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import Testing

@Suite("Responder links")
struct ResponderLinksTests {
    let links = ResponderLinks(jwtSecret: "test-secret-with-at-least-32-characters!", baseURL: URL(string: "https://ls.example/")!)
    let alert = UUID(), responder = UserID(UUID())
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a link is <base>/r/<60 characters> and names its alert, responder and expiry")
    func roundTrip() throws {
        let url = links.url(alertID: alert, responder: responder, now: now)
        let text = url.absoluteString
        #expect(text.hasPrefix("https://ls.example/r/"))
        let token = String(text.dropFirst("https://ls.example/r/".count))
        #expect(token.count == 60)
        let link = try #require(links.verify(token, now: now))
        #expect(link.alertID == alert && link.responder == responder)
        #expect(link.expiresAt == now.addingTimeInterval(ResponderLinks.defaultLifetime))
    }

    @Test("an expired, tampered, truncated or foreign-key token is refused")
    func refusals() throws {
        let token = links.token(alertID: alert, responder: responder, expiresAt: now.addingTimeInterval(60))
        #expect(links.verify(token, now: now.addingTimeInterval(59)) != nil)
        #expect(links.verify(token, now: now.addingTimeInterval(60)) == nil)
        // Every single-character change anywhere (payload or tag) is refused.
        for index in token.indices {
            var changed = token
            changed.replaceSubrange(index...index, with: token[index] == "A" ? "B" : "A")
            #expect(links.verify(changed, now: now) == nil, "changed at \(token.distance(from: token.startIndex, to: index))")
        }
        #expect(links.verify(String(token.dropLast()), now: now) == nil)
        #expect(links.verify(token + "A", now: now) == nil)
        #expect(links.verify(token + "=", now: now) == nil)
        #expect(links.verify("", now: now) == nil)
        let other = ResponderLinks(jwtSecret: "another-secret-with-at-least-32-characters", baseURL: links.baseURL)
        #expect(other.verify(token, now: now) == nil)
    }

    @Test("responder and invitation tokens are not interchangeable")
    func purposes() throws {
        let invitation = links.invitationToken(invitationID: alert, expiresAt: now.addingTimeInterval(60))
        #expect(invitation.count <= 40)
        #expect(links.verifyInvitation(invitation, now: now)?.invitationID == alert)
        #expect(links.verify(invitation, now: now) == nil)
        let responderToken = links.token(alertID: alert, responder: responder, expiresAt: now.addingTimeInterval(60))
        #expect(links.verifyInvitation(responderToken, now: now) == nil)
        #expect(links.invitationURL(invitationID: alert, now: now).absoluteString.hasPrefix("https://ls.example/i/"))
    }
}
