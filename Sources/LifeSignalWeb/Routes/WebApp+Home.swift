import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// The person's own pages: home (check in, the countdown, pause), the SOS and its cancel,
/// and the schedule's settings.
extension WebApp {
    func registerHome(on router: some RouterMethods<Context>) {
        router.get("/") { request, _ in
            await self.guarded {
                guard let session = try await self.session(request) else {
                    return PageResponse.html(.ok, WebTemplates.page("sign-in", SignInView(next: "/"), title: "Sign in", chrome: .signedOut))
                }
                return try await self.home(session, said: request.uri.queryParameters.get("said"))
            }
        }
        router.post("check-in") { request, _ in
            await self.signedInForm(request) { session, form in
                // The page's script asks for JSON (it sends a check-in kept while offline);
                // a form without script is answered with the page.
                let script = request.headers[.accept]?.contains("application/json") == true
                let said: String
                let pin = form["pin"].flatMap { $0.isEmpty ? nil : $0 }
                do {
                    if let key = form["key"], !key.isEmpty {
                        _ = try await self.backend.checkIns.checkIn(caller: session.caller, pin: pin, idempotencyKey: key)
                    } else {
                        _ = try await self.backend.checkIns.checkIn(caller: session.caller, pin: pin)
                    }
                    said = "checked-in"
                } catch DomainError.checkInTooSoon {
                    // A second tap within minutes: the first one counted, and that is what to say.
                    said = "already"
                }
                guard script else { return PageResponse.redirect(to: "/?said=\(said)") }
                return Self.json(.ok, ["message": Self.notice(said) ?? "", "said": said])
            }
        }
        router.get("sos") { request, _ in
            await self.signedInPage(request) { session in
                let names = try await self.backend.checkIns.escalation(caller: session.caller).responders.map(\.name)
                let view = SOSView(csrf: session.csrfToken, responders: names.isEmpty ? nil : names.joined(separator: ", "))
                return PageResponse.html(.ok, WebTemplates.page("sos", view, title: "Send an SOS?", chrome: .signedIn(csrf: session.csrfToken, current: nil)))
            }
        }
        router.post("sos") { request, _ in
            await self.signedInForm(request) { session, form in
                guard form["confirm"] == "yes" else { return PageResponse.redirect(to: "/sos") }
                _ = try await self.backend.alerts.trigger(caller: session.caller, location: Self.location(in: form, now: self.backend.clock.now()))
                return PageResponse.redirect(to: "/?said=sos")
            }
        }
        router.post("sos/cancel") { request, _ in
            await self.signedInForm(request) { session, _ in
                _ = try await self.backend.alerts.cancel(caller: session.caller)
                return PageResponse.redirect(to: "/?said=sos-cancelled")
            }
        }
        router.post("pause") { request, _ in
            await self.signedInForm(request) { session, form in
                guard let hours = form["hours"].flatMap(Int.init), (1...24 * 30).contains(hours) else {
                    throw DomainError.invalidArgument("Choose how long to pause for")
                }
                let until = self.backend.clock.now().addingTimeInterval(TimeInterval(hours) * 3600)
                _ = try await self.backend.checkIns.pause(caller: session.caller, until: until)
                return PageResponse.redirect(to: "/?said=paused")
            }
        }
        router.post("resume") { request, _ in
            await self.signedInForm(request) { session, _ in
                _ = try await self.backend.checkIns.resume(caller: session.caller)
                return PageResponse.redirect(to: "/?said=resumed")
            }
        }
        router.get("settings") { request, _ in
            await self.signedInPage(request) { session in try await self.settings(session, said: request.uri.queryParameters.get("said")) }
        }
        router.post("settings") { request, _ in
            await self.signedInForm(request) { session, form in try await self.saveSettings(session, form) }
        }
        router.post("settings/alerts") { request, _ in
            await self.signedInForm(request) { session, form in try await self.saveAlertChannels(session, form) }
        }
        router.post("settings/pins") { request, _ in
            await self.signedInForm(request) { session, form in try await self.savePINs(session, form, remove: false) }
        }
        router.post("settings/pins/remove") { request, _ in
            await self.signedInForm(request) { session, form in try await self.savePINs(session, form, remove: true) }
        }
    }

    /// What a redirect's `said=` shows: fixed sentences, so a link cannot put words on the page.
    static func notice(_ key: String?) -> String? {
        switch key {
        case "checked-in": "You're checked in. Thank you."
        case "already": "You checked in a moment ago: that counts."
        case "sos": "SOS sent. Your responders are being told now."
        case "sos-cancelled": "SOS cancelled. Your responders have been told you are safe."
        case "paused": "Check-ins are paused."
        case "resumed": "Check-ins are back on."
        case "saved": "Saved."
        case "pin-saved": "Your check-in PIN is saved. Every check-in now asks for it."
        case "pin-removed": "Check-ins no longer ask for a PIN."
        case "linked": "You are now linked."
        case "invited": "Invitation sent."
        case "removed": "Removed."
        case "accepted": "Accepted."
        case "declined": "Declined."
        case "on-it": "They've been told you're on it."
        case "safe": "Marked safe. Everyone has been told."
        case "new-code": "You have a new QR code. The old one no longer works."
        default: nil
        }
    }

    private func home(_ session: CookieSessions.Session, said: String?) async throws -> Response {
        let caller = session.caller
        let now = backend.clock.now()
        let profile = try await backend.profiles.profile(caller: caller)
        let escalation = try await backend.checkIns.escalation(caller: caller)
        let sos = try await backend.alerts.activeAlert(caller: caller).flatMap { $0.kind == .sos ? $0 : nil }
        let paused = escalation.isPaused(at: now) ? escalation.pausedUntil : nil
        let interval = (try? CheckInInterval(seconds: TimeInterval(profile.checkInIntervalSeconds))) ?? .default
        let band = CheckInStatus(lastCheckIn: profile.lastCheckIn, interval: interval).band(at: now)
        let stopped = try await backend.unreachableBySMS([profile.phone]).isEmpty == false
        let pins = try await backend.checkInPINs.settings(caller: caller)
        let view = HomeView(
            csrf: session.csrfToken, greeting: profile.firstName.isEmpty ? "Your check-in" : "Hello, \(profile.firstName)",
            said: Self.notice(said), band: paused == nil ? band.rawValue : "paused",
            deadline: profile.deadline.map(PageTime.readable), deadlineISO: profile.deadline.map(PageTime.iso),
            remaining: profile.deadline.map { PageTime.remaining(until: $0, now: now) },
            paused: paused.map(PageTime.readable), pausedISO: paused.map(PageTime.iso),
            last: profile.lastCheckIn.map(PageTime.readable), lastISO: profile.lastCheckIn.map(PageTime.iso),
            lastAgo: profile.lastCheckIn.map { PageTime.ago($0, now: now) },
            interval: PageTime.duration(profile.checkInIntervalSeconds), reminder: Self.describe(profile.reminderLead),
            grace: escalation.settings.graceSeconds == 0
                ? "As soon as a check-in is missed" : PageTime.duration(escalation.settings.graceSeconds) + " after a missed check-in",
            sos: sos.map { PageTime.ago($0.activatedAt, now: now) },
            checkInKey: UUID().uuidString.lowercased(),
            smsStopped: stopped
                ? "Texts to your number are stopped (you replied STOP, or it takes no texts): reminders and check-in replies by SMS will not work. Text START to LifeSignal's number to turn them back on."
                : nil,
            needsPIN: pins.hasPIN)
        return PageResponse.html(.ok, WebTemplates.page("home", view, title: "Home", chrome: .signedIn(csrf: session.csrfToken, current: "home")))
    }

    /// The location an SOS form carries when the browser granted it. None, a partial one, or
    /// one the alert's rule would refuse is no location: the SOS goes all the same. A fix time
    /// more than a day from now (a browser's wrong clock) is now.
    static func location(in form: FormBody, now: Date) -> AlertLocation? {
        guard let latitude = form["latitude"].flatMap(Double.init), let longitude = form["longitude"].flatMap(Double.init) else { return nil }
        let accuracy = form["accuracy"].flatMap(Double.init).flatMap { (0...AlertLocation.maximumAccuracyMeters).contains($0) ? $0 : nil }
        let fixed = form["located_at"].flatMap(Double.init).flatMap { $0.isFinite ? Date(timeIntervalSince1970: $0 / 1000) : nil }
        let time = fixed.flatMap { abs($0.timeIntervalSince(now)) <= 86_400 ? $0 : nil } ?? now
        let location = AlertLocation(latitude: latitude, longitude: longitude, accuracyMeters: accuracy, time: time)
        return (try? location.validate()) == nil ? nil : location
    }

    static func describe(_ lead: ReminderLead) -> String {
        switch lead {
        case .none: "No reminder"
        case .thirtyMinutes: "30 minutes before"
        case .twoHours: "2 hours before"
        }
    }
}
