import Foundation

extension AppFeature {
    /// Every screen's reducer, each on its own part of the state. They run before the app's own
    /// logic, so it sees what a child made of an action (TCA's order).
    static var children: some Reducer<State, Action> {
        CombineReducers {
            Scope(state: \State.auth, action: { if case .auth(let a) = $0 { a } else { nil } }, embed: Action.auth) { AuthFeature() }
            Scope(state: \State.onboarding, action: { if case .onboarding(let a) = $0 { a } else { nil } }, embed: Action.onboarding) {
                OnboardingFeature()
            }
            Scope(state: \State.checkIn, action: { if case .checkIn(let a) = $0 { a } else { nil } }, embed: Action.checkIn) { CheckInFeature() }
            Scope(
                state: \State.checkInSettings, action: { if case .checkInSettings(let a) = $0 { a } else { nil } },
                embed: Action.checkInSettings
            ) { CheckInSettingsFeature() }
            Scope(state: \State.sos, action: { if case .sos(let a) = $0 { a } else { nil } }, embed: Action.sos) { SOSFeature() }
            Scope(state: \State.dependents, action: { if case .dependents(let a) = $0 { a } else { nil } }, embed: Action.dependents) {
                DependentsFeature()
            }
            Scope(state: \State.responders, action: { if case .responders(let a) = $0 { a } else { nil } }, embed: Action.responders) {
                RespondersFeature()
            }
            Scope(state: \State.contacts, action: { if case .contacts(let a) = $0 { a } else { nil } }, embed: Action.contacts) {
                ContactsFeature()
            }
            Scope(state: \State.myQRCode, action: { if case .myQRCode(let a) = $0 { a } else { nil } }, embed: Action.myQRCode) {
                MyQRCodeFeature()
            }
            Scope(state: \State.pings, action: { if case .pings(let a) = $0 { a } else { nil } }, embed: Action.pings) { PingsFeature() }
            Scope(
                state: \State.notifications, action: { if case .notifications(let a) = $0 { a } else { nil } },
                embed: Action.notifications
            ) { NotificationCentreFeature() }
            Scope(state: \State.profile, action: { if case .profile(let a) = $0 { a } else { nil } }, embed: Action.profile) {
                ProfileFeature()
            }
        }
    }
}
