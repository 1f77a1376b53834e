import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// The people page: dependents' status and alerts to answer, responders and their tiers,
/// requests to accept or decline, and inviting someone by text.
extension WebApp {
    func registerPeople(on router: some RouterMethods<Context>) {
        router.get("people") { request, _ in
            await self.signedInPage(request) { session in try await self.people(session, said: request.uri.queryParameters.get("said")) }
        }
        router.post("people/invite") { request, _ in
            await self.signedInForm(request) { session, form in
                _ = try await self.backend.contacts.invite(caller: session.caller, phone: form["phone"] ?? "", roles: try Self.roles(in: form))
                return PageResponse.redirect(to: "/people?said=invited")
            }
        }
        router.post("people/:id/remove") { request, context in
            await self.signedInForm(request) { session, _ in
                guard let id = context.parameters.get("id").flatMap(UserID.init(string:)) else { throw DomainError.notFound("Contact") }
                try await self.backend.contacts.removeContact(caller: session.caller, contact: id)
                return PageResponse.redirect(to: "/people?said=removed")
            }
        }
        router.post("people/:id/tier") { request, context in
            await self.signedInForm(request) { session, form in
                guard let id = context.parameters.get("id").flatMap(UserID.init(string:)) else { throw DomainError.notFound("Contact") }
                guard let tier = form["tier"].flatMap(Int.init) else { throw DomainError.invalidArgument("Choose when they are told") }
                _ = try await self.backend.checkIns.updateTier(caller: session.caller, responder: id, tier: tier)
                return PageResponse.redirect(to: "/people?said=saved")
            }
        }
        // Role requests and invitations addressed to me: accept or decline, each by its own rule.
        registerAnswers(on: router, path: "people/requests/:id/:answer") { caller, id, accept in
            if accept {
                _ = try await self.backend.contacts.acceptRoleRequest(caller: caller, requestID: id)
            } else {
                try await self.backend.contacts.declineRoleRequest(caller: caller, requestID: id)
            }
        }
        registerAnswers(on: router, path: "people/invitations/:id/:answer") { caller, id, accept in
            if accept {
                _ = try await self.backend.contacts.acceptInvitation(caller: caller, invitationID: id)
            } else {
                try await self.backend.contacts.declineInvitation(caller: caller, invitationID: id)
            }
        }
        router.post("alerts/:id/:answer") { request, context in
            await self.signedInForm(request) { session, _ in
                let id = try Self.uuid(context.parameters.get("id"))
                do {
                    switch context.parameters.get("answer") {
                    case "on-it": _ = try await self.backend.alerts.respond(caller: session.caller, alertID: id)
                    case "safe": _ = try await self.backend.alerts.markSafe(caller: session.caller, alertID: id)
                    default: throw DomainError.notFound("Answer")
                    }
                } catch DomainError.alreadyExists {
                    // Said twice (a double tap): it was said.
                }
                return PageResponse.redirect(to: "/people?said=\(context.parameters.get("answer") == "safe" ? "safe" : "on-it")")
            }
        }
    }

    /// `POST <path>` with `:id` and `:answer` (`accept` or `decline`), answered by `answer`.
    private func registerAnswers(
        on router: some RouterMethods<Context>, path: RouterPath,
        _ answer: @escaping @Sendable (Caller, UUID, _ accept: Bool) async throws -> Void
    ) {
        router.post(path) { request, context in
            await self.signedInForm(request) { session, _ in
                let id = try Self.uuid(context.parameters.get("id"))
                let accept: Bool
                switch context.parameters.get("answer") {
                case "accept": accept = true
                case "decline": accept = false
                default: throw DomainError.notFound("Answer")
                }
                try await answer(session.caller, id, accept)
                return PageResponse.redirect(to: "/people?said=\(accept ? "accepted" : "declined")")
            }
        }
    }

    /// Tiers in words: tier 1 is told at once, each next one a tier delay later.
    static func tierText(_ tier: Int) -> String {
        switch tier {
        case 1: "first"
        case 2: "second, if nobody answers"
        case 3: "third, if still nobody answers"
        default: "tier \(tier), if still nobody answers"
        }
    }

    static func uuid(_ text: String?) throws(DomainError) -> UUID {
        guard let text, let id = UUID(uuidString: text) else { throw .notFound("That item") }
        return id
    }

    /// The roles a form's `role` radio names for the other person: what they will be to me.
    static func roles(in form: FormBody) throws(DomainError) -> ContactRoles {
        switch form["role"] {
        case "responder": try ContactRoles(isResponder: true, isDependent: false)
        case "dependent": try ContactRoles(isResponder: false, isDependent: true)
        case "both": try ContactRoles(isResponder: true, isDependent: true)
        default: throw .invalidArgument("Choose what they will be to you")
        }
    }

    private func people(_ session: CookieSessions.Session, said: String?) async throws -> Response {
        let caller = session.caller
        let now = backend.clock.now()
        let csrf = session.csrfToken
        let list = try await backend.contacts.contacts(caller: caller)
        let tiers = Dictionary(
            try await backend.checkIns.escalation(caller: caller).responders.map { ($0.id, $0.tier) }, uniquingKeysWith: { first, _ in first })
        var alerts: [PeopleView.Alert] = []
        for contact in list.contacts where contact.roles.isDependent && contact.activeAlertID != nil {
            // The alert as a responder may see it (the location of an SOS, who answered).
            guard let alert = try await backend.alerts.activeAlert(caller: caller, of: contact.id) else { continue }
            let steps = try await backend.alerts.timeline(caller: caller, alertID: alert.id)
            alerts.append(
                PeopleView.Alert(
                    id: alert.id.uuidString.lowercased(), csrf: csrf, name: contact.name,
                    what: alert.kind == .sos ? "SOS" : "missed a check-in", since: PageTime.ago(alert.activatedAt, now: now),
                    phone: contact.phone.isEmpty ? nil : contact.phone,
                    map: alert.location.map { "https://www.openstreetmap.org/?mlat=\($0.latitude)&mlon=\($0.longitude)#map=17/\($0.latitude)/\($0.longitude)" },
                    told: alert.responses.isEmpty ? "Nobody has answered yet." : "On it: " + alert.responses.map(\.responderName).joined(separator: ", "),
                    tried: steps.isEmpty
                        ? nil
                        : "Tried: "
                            + steps.map { step in
                                let when = step.status == "held" ? "" : ", " + PageTime.ago(step.at, now: now)
                                return "\(step.recipient) by \(Self.channelName(step.channel))\(when) (\(Self.statusName(step.status)))"
                            }
                            .joined(separator: " · ")))
        }
        var requests = list.receivedRoleRequests.map {
            PeopleView.Request(
                csrf: csrf, text: "\($0.requesterName) asks to look out for you: to see your check-ins and be told when you miss one.",
                accept: "/people/requests/\($0.id.uuidString.lowercased())/accept", decline: "/people/requests/\($0.id.uuidString.lowercased())/decline")
        }
        requests += list.receivedInvitations.map {
            PeopleView.Request(
                csrf: csrf, text: "\($0.inviterName) invited you to \(Self.describeInvitation($0.roles)).",
                accept: "/people/invitations/\($0.id.uuidString.lowercased())/accept",
                decline: "/people/invitations/\($0.id.uuidString.lowercased())/decline")
        }
        let unreachable = try await backend.unreachableBySMS(list.contacts.map(\.phone))
        let dependents = list.contacts.filter(\.roles.isDependent).map { contact in
            var (status, state) = Self.status(of: contact, now: now)
            if unreachable.contains(contact.phone) { status += " · can't be reached by SMS" }
            return PeopleView.Person(
                id: contact.id.rawValue.uuidString.lowercased(), csrf: csrf, name: contact.name, phone: contact.phone.isEmpty ? nil : contact.phone,
                status: status, state: state, tierText: "", tiers: [])
        }
        let responders = list.contacts.filter(\.roles.isResponder).map { contact in
            let tier = tiers[contact.id] ?? 1
            return PeopleView.Person(
                id: contact.id.rawValue.uuidString.lowercased(), csrf: csrf, name: contact.name, phone: nil,
                status: unreachable.contains(contact.phone) ? "Can't be reached by SMS: they replied STOP, or the number takes no texts" : "",
                state: "", tierText: Self.tierText(tier),
                tiers: (1...4).map { Choice(value: String($0), label: Self.tierText($0).capitalizedFirst, selected: $0 == tier) })
        }
        let pending =
            list.sentInvitations.map { "Invitation to \($0.inviteePhone)" } + list.sentRoleRequests.map { "Your request to look out for \($0.ownerName)" }
        let view = PeopleView(
            csrf: csrf, said: Self.notice(said), alerts: alerts, requests: requests, dependents: dependents, responders: responders, pending: pending,
            hasAlerts: !alerts.isEmpty, hasRequests: !requests.isEmpty, hasDependents: !dependents.isEmpty, hasResponders: !responders.isEmpty,
            hasPending: !pending.isEmpty)
        return PageResponse.html(.ok, WebTemplates.page("people", view, title: "People", chrome: .signedIn(csrf: csrf, current: "people")))
    }

    /// A dependent's state in words, and a class for its colour.
    static func status(of contact: ContactSummary, now: Date) -> (String, String) {
        if contact.hasActiveSOS { return ("SOS", "sos") }
        if contact.activeAlertID != nil || contact.isNonResponsive || (contact.deadline.map { $0 <= now } ?? false) {
            return ("Overdue", "overdue")
        }
        guard let last = contact.lastCheckIn else { return ("Not checked in yet", "waiting") }
        return ("Checked in \(PageTime.ago(last, now: now))", "ok")
    }

    static func describeInvitation(_ roles: ContactRoles) -> String {
        switch (roles.isResponder, roles.isDependent) {
        case (true, true): "look out for each other"
        case (true, false): "look out for them"
        default: "be looked out for by them"
        }
    }
}
