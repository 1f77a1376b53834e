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
                let form: FormBody
                do { form = try await FormBody.read(request) } catch { return self.tooLarge() }
                let pin = form["pin"].flatMap { $0.isEmpty ? nil : $0 }
                let page = "/c/" + (context.parameters.get("token") ?? "")
                do {
                    guard try await self.backend.checkIns.checkIn(by: link, pin: pin) != nil else { return self.linkUnavailable(.gone) }
                } catch let error as DomainError {
                    // A missing or wrong PIN: back to this link's page, not to the sign-in.
                    return self.message(WebErrors.status(of: error), "Not checked in", WebErrors.text(of: error), back: page)
                }
                return PageResponse.redirect(to: page)
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
        case .due(let name, let deadline, let needsPIN):
            view = CheckInLinkView(
                greeting: name.isEmpty ? "Time to check in" : "Hello, \(name)", due: true,
                text: "Check in before \(PageTime.readable(deadline)) (\(PageTime.remaining(until: deadline, now: now))).", needsPIN: needsPIN)
        case .alreadyCheckedIn(let name, let last, let deadline):
            let next = deadline.map { " Your next check-in is due \(PageTime.readable($0))." } ?? ""
            view = CheckInLinkView(
                greeting: name.isEmpty ? "You're checked in" : "Thank you, \(name)", due: false,
                text: "You're checked in\(last.map { ", \(PageTime.ago($0, now: now))" } ?? "").\(next)")
        }
        return PageResponse.html(.ok, WebTemplates.page("check-in-link", view, title: "Check in", chrome: .signedOut))
    }
}
