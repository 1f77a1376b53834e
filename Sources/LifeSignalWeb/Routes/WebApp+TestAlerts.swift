import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// `/test-alert`: the person sends "This is a test" and sees who can be reached, and how.
/// `/t/<token>`: a responder's link from that message; its button confirms (POST, same origin
/// checked), no sign-in needed, as on a responder link.
extension WebApp {
    func registerTestAlerts(on router: some RouterMethods<Context>) {
        router.get("test-alert") { request, _ in
            await self.signedInPage(request) { session in try await self.testAlertPage(session) }
        }
        router.post("test-alert") { request, _ in
            await self.signedInForm(request) { session, _ in
                _ = try await self.backend.testAlerts.send(caller: session.caller)
                return PageResponse.redirect(to: "/test-alert")
            }
        }
        router.get("t/:token") { _, context in
            await self.guarded {
                guard let id = self.testMessage(context), let message = try await self.backend.testAlerts.message(id) else {
                    return self.message(.notFound, "This link is not available", "It may have expired.")
                }
                return PageResponse.html(
                    .ok, WebTemplates.page("test-link", TestLinkView(name: message.name, confirmed: message.confirmed), title: "Test", chrome: .signedOut))
            }
        }
        router.post("t/:token") { request, context in
            await self.guarded {
                guard self.sameOrigin.allows(request) else { return self.refused() }
                guard let id = self.testMessage(context), try await self.backend.testAlerts.confirm(id, how: "link") != nil else {
                    return self.message(.notFound, "This link is not available", "It may have expired.")
                }
                return PageResponse.redirect(to: "/t/" + (context.parameters.get("token") ?? ""))
            }
        }
    }

    private func testMessage(_ context: Context) -> UUID? {
        context.parameters.get("token").flatMap { links.verifyTest($0, now: backend.clock.now()) }
    }

    private func testAlertPage(_ session: CookieSessions.Session) async throws -> Response {
        let now = backend.clock.now()
        let report = try await backend.testAlerts.latest(caller: session.caller)
        let responders = (report?.responders ?? []).map { responder in
            TestAlertView.Responder(
                name: responder.name,
                confirmed: responder.confirmedAt.map {
                    "confirmed \(PageTime.ago($0, now: now))" + (responder.confirmedBy == "call" ? " on a call" : " by the link")
                }
                    ?? "not confirmed yet",
                warning: responder.isUnreachable
                    ? "Nothing outside the app reached \(responder.name): they would hear of an alert only by opening LifeSignal. Ask them to turn on texts, email or calls."
                    : nil,
                channels: responder.attempts.isEmpty
                    ? "No way to reach them outside the app."
                    : responder.attempts.map { "\(Self.channelName($0.channel)): \(Self.statusName($0.status))" }.joined(separator: " · "))
        }
        let view = TestAlertView(csrf: session.csrfToken, sent: report.map { PageTime.ago($0.sentAt, now: now) }, responders: responders)
        return PageResponse.html(.ok, WebTemplates.page("test-alert", view, title: "Test alert", chrome: .signedIn(csrf: session.csrfToken, current: "people")))
    }

    static func channelName(_ channel: DeliveryChannel) -> String {
        switch channel {
        case .push: "app notification"
        case .sms: "text"
        case .email: "email"
        case .voice: "call"
        }
    }

    static func statusName(_ status: String) -> String {
        switch status {
        case "delivered": "delivered"
        case "sent": "sent"
        case "failed": "failed"
        case "held": "waiting its turn"
        case "queued", "sending": "on its way"
        case "cancelled": "not needed"
        default: status
        }
    }
}
