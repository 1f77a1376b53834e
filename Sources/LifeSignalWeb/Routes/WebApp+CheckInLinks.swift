import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// `GET`/`POST /c/<token>`: the one-tap check-in a reminder links to. The token in the path is
/// the credential (as a responder link's is): no sign-in, one button, the same-origin check on
/// the post. A token the server did not make, or one long past its deadline, shows nothing.
extension WebApp {
    func registerCheckInLinks(on router: some RouterMethods<Context>) {
        router.get("c/:token") { _, context in
            await self.guarded {
                guard let link = self.checkInLink(context) else { return self.linkUnavailable() }
                guard let state = try await self.backend.checkIns.linkState(for: link) else { return self.linkUnavailable(.gone) }
                return self.checkInLinkPage(state)
            }
        }
        router.post("c/:token") { request, context in
            await self.guarded {
                guard self.sameOrigin.allows(request) else { return self.refused() }
                guard let link = self.checkInLink(context) else { return self.linkUnavailable() }
                guard try await self.backend.checkIns.checkIn(by: link) != nil else { return self.linkUnavailable(.gone) }
                // Relative to `/c/<token>`: the token alone names the same page.
                return PageResponse.redirect(to: "/c/" + (context.parameters.get("token") ?? ""))
            }
        }
    }

    private func checkInLink(_ context: Context) -> CheckInLink? {
        guard let token = context.parameters.get("token") else { return nil }
        return links.verifyCheckIn(token, now: backend.clock.now())
    }

    private func linkUnavailable(_ status: HTTPResponse.Status = .notFound) -> Response {
        message(status, "This link is not available", "It may have expired. Open LifeSignal to check in.", back: "/")
    }

    private func checkInLinkPage(_ state: CheckInService.LinkState) -> Response {
        let now = backend.clock.now()
        let view: CheckInLinkView
        switch state {
        case .due(let name, let deadline):
            view = CheckInLinkView(
                greeting: name.isEmpty ? "Time to check in" : "Hello, \(name)", due: true,
                text: "Check in before \(PageTime.readable(deadline)) (\(PageTime.remaining(until: deadline, now: now))).")
        case .alreadyCheckedIn(let name, let last, let deadline):
            let next = deadline.map { " Your next check-in is due \(PageTime.readable($0))." } ?? ""
            view = CheckInLinkView(
                greeting: name.isEmpty ? "You're checked in" : "Thank you, \(name)", due: false,
                text: "You're checked in\(last.map { ", \(PageTime.ago($0, now: now))" } ?? "").\(next)")
        }
        return PageResponse.html(.ok, WebTemplates.page("check-in-link", view, title: "Check in", chrome: .signedOut))
    }
}
