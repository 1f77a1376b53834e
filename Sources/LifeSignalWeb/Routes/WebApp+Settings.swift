import Foundation
import Hummingbird
import LifeSignalBackend
import LifeSignalDomain

/// The settings page: name, interval, reminder and grace, each a fixed choice so a person
/// never has to type a number of seconds.
enum SettingsChoices {
    static let intervalHours = [1, 2, 4, 6, 8, 12, 24, 36, 48, 72, 168]
    static let graceMinutes = [0, 15, 30, 60, 120, 240]
}

extension WebApp {
    func settings(_ session: CookieSessions.Session, said: String?) async throws -> Response {
        let profile = try await backend.profiles.profile(caller: session.caller)
        let escalation = try await backend.checkIns.escalation(caller: session.caller)
        let intervalSeconds = profile.checkInIntervalSeconds
        var intervals = SettingsChoices.intervalHours.map {
            Choice(value: String($0), label: PageTime.duration($0 * 3600), selected: $0 * 3600 == intervalSeconds)
        }
        if !intervals.contains(where: \.selected) {
            // A schedule set elsewhere (the API allows any hour count) stays choosable as it is.
            intervals.insert(Choice(value: String(Double(intervalSeconds) / 3600), label: PageTime.duration(intervalSeconds), selected: true), at: 0)
        }
        let reminders = [ReminderLead.thirtyMinutes, .twoHours, .none].map {
            Choice(value: $0.rawValue, label: Self.describe($0), selected: $0 == profile.reminderLead)
        }
        let grace = escalation.settings.graceSeconds
        var graces = SettingsChoices.graceMinutes.map {
            Choice(value: String($0), label: $0 == 0 ? "At once" : PageTime.duration($0 * 60) + " after a missed check-in", selected: $0 * 60 == grace)
        }
        if !graces.contains(where: \.selected) {
            graces.insert(Choice(value: String(grace / 60), label: PageTime.duration(grace) + " after a missed check-in", selected: true), at: 0)
        }
        let pins = try await backend.checkInPINs.settings(caller: session.caller)
        let channels = try await backend.deliveries.preferences(caller: session.caller)
        let calls = [("off", "No calls"), ("urgent", "Call me about alerts")].map {
            Choice(value: $0.0, label: $0.1, selected: (channels.voice == .off ? "off" : "urgent") == $0.0)
        }
        let orders = Self.alertOrders.map { Choice(value: $0.value, label: $0.label, selected: $0.order == channels.fallback) }
        let view = SettingsView(
            csrf: session.csrfToken, said: Self.notice(said), firstName: profile.firstName, lastName: profile.lastName,
            intervals: intervals, reminders: reminders, graces: graces, pushKey: webPushKey, hasPIN: pins.hasPIN,
            pinStatus: pins.hasPIN
                ? (pins.hasDuressPIN ? "Your check-ins ask for your PIN. You also have a duress PIN." : "Your check-ins ask for your PIN.")
                : "Your check-ins do not ask for a PIN.",
            calls: calls, orders: orders)
        return PageResponse.html(.ok, WebTemplates.page("settings", view, title: "Settings", chrome: .signedIn(csrf: session.csrfToken, current: "settings")))
    }

    /// Each change goes through the rule the API's function uses. The schedule's choices are
    /// checked here before anything is written and the name's rules run first, so a refusal
    /// leaves everything as it was.
    func saveSettings(_ session: CookieSessions.Session, _ form: FormBody) async throws -> Response {
        let caller = session.caller
        guard let hours = form["interval_hours"].flatMap(Double.init), hours.isFinite else {
            throw DomainError.invalidArgument("Choose how often to check in")
        }
        let interval = try CheckInInterval(seconds: hours * 3600)
        guard let lead = form["reminder"].flatMap(ReminderLead.init(rawValue:)) else { throw DomainError.invalidArgument("Choose a reminder") }
        guard let graceMinutes = form["grace_minutes"].flatMap(Int.init), graceMinutes >= 0, graceMinutes <= 24 * 60 else {
            throw DomainError.invalidArgument("Choose when your responders are told")
        }
        _ = try await backend.profiles.update(caller: caller, ProfileUpdate(firstName: form["first_name"] ?? "", lastName: form["last_name"] ?? ""))
        _ = try await backend.profiles.updateCheckInSettings(caller: caller, interval: interval, reminderLead: lead)
        _ = try await backend.checkIns.updateEscalation(caller: caller, graceSeconds: graceMinutes * 60, tierDelaySeconds: nil, repeatSeconds: nil)
        return PageResponse.redirect(to: "/settings?said=saved")
    }

    /// The fallback orders offered (any other, set elsewhere, shows as none selected).
    static var alertOrders: [(value: String, label: String, order: [DeliveryChannel])] {
        [
            ("all", "Tell me every way at once", []),
            ("push-sms-voice-email", "One way at a time: app, then text, then call, then email", [.push, .sms, .voice, .email]),
            ("voice-sms-push-email", "One way at a time: call first, then text, then app, then email", [.voice, .sms, .push, .email]),
        ]
    }

    /// Calls and the fallback order, through the API's rules.
    func saveAlertChannels(_ session: CookieSessions.Session, _ form: FormBody) async throws -> Response {
        guard let voice = form["voice"].flatMap(ChannelChoice.init(rawValue:)), let order = Self.alertOrders.first(where: { $0.value == form["order"] })
        else { throw DomainError.invalidArgument("Choose how alerts reach you") }
        _ = try await backend.deliveries.updatePreferences(caller: session.caller, voice: voice, fallback: order.order)
        return PageResponse.redirect(to: "/settings?said=saved")
    }

    /// Sets both PINs (an empty duress field removes the duress PIN), or removes both.
    func savePINs(_ session: CookieSessions.Session, _ form: FormBody, remove: Bool) async throws -> Response {
        let pin = remove ? nil : form["pin"] ?? ""
        let duress = remove ? nil : form["duress_pin"].flatMap { $0.isEmpty ? nil : $0 }
        _ = try await backend.checkInPINs.set(caller: session.caller, pin: pin, duressPIN: duress)
        return PageResponse.redirect(to: remove ? "/settings?said=pin-removed" : "/settings?said=pin-saved")
    }
}
