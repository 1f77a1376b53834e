import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The whole app: which part a person sees follows their sign-in state, and the signed-in
/// part is a set of tabs, each a feature of its own.
///
/// Routing has one source of truth, the session: sign-in, onboarding and the tabs are chosen
/// from it and from whether the profile has a name yet, never from which screen happened to
/// finish last. The session stream is followed for as long as the app runs, so a session
/// ended elsewhere (expired refresh token, account deleted on another device) sends the
/// person back to sign-in with nothing of theirs left on screen.
public struct AppFeature: Reducer {
    public enum Route: Equatable, Sendable {
        /// Reading a kept session; nothing is shown yet.
        case launching
        case signIn
        case onboarding
        case main
    }

    public enum Tab: String, Equatable, Sendable, CaseIterable {
        case checkIn, dependents, responders, contacts, pings, notifications, profile
    }

    public struct State: Equatable, Sendable {
        public var route: Route
        public var session: AuthSession?
        public var tab: Tab
        public var errorMessage: String?
        public var auth: AuthFeature.State
        public var onboarding: OnboardingFeature.State
        public var checkIn: CheckInFeature.State
        public var checkInSettings: CheckInSettingsFeature.State
        public var sos: SOSFeature.State
        public var dependents: DependentsFeature.State
        public var responders: RespondersFeature.State
        public var contacts: ContactsFeature.State
        /// "My QR code", opened from the Contacts tab.
        public var myQRCode: MyQRCodeFeature.State
        public var pings: PingsFeature.State
        public var notifications: NotificationCentreFeature.State
        public var profile: ProfileFeature.State

        public init(route: Route = .launching, session: AuthSession? = nil, tab: Tab = .checkIn) {
            self.route = route
            self.session = session
            self.tab = tab
            auth = .init()
            onboarding = .init()
            checkIn = .init()
            checkInSettings = .init()
            sos = .init()
            dependents = .init()
            responders = .init()
            contacts = .init()
            myQRCode = .init()
            pings = .init()
            notifications = .init()
            profile = .init()
        }

        /// Badges on the tab bar: what waits for the person's attention on each tab.
        public var badges: [Tab: Int] {
            [
                .dependents: dependents.badge, .responders: responders.badge, .contacts: contacts.badge, .pings: pings.badge,
                .notifications: notifications.badge,
            ]
            .filter { $0.value > 0 }
        }
    }

    public enum Action: Equatable, Sendable {
        /// The app launched: follow the session for as long as the app runs.
        case task
        case sessionChanged(AuthSession?)
        case profileLoaded(Result<UserProfile, DomainError>)
        case tabSelected(Tab)
        case auth(AuthFeature.Action)
        case onboarding(OnboardingFeature.Action)
        case checkIn(CheckInFeature.Action)
        case checkInSettings(CheckInSettingsFeature.Action)
        case sos(SOSFeature.Action)
        case dependents(DependentsFeature.Action)
        case responders(RespondersFeature.Action)
        case contacts(ContactsFeature.Action)
        case myQRCode(MyQRCodeFeature.Action)
        case pings(PingsFeature.Action)
        case notifications(NotificationCentreFeature.Action)
        case profile(ProfileFeature.Action)
    }

    enum CancelID { case sessions, profile }

    @Dependency(\.authClient) var authClient
    @Dependency(\.userClient) var userClient

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        CombineReducers {
            AppFeature.children
            Reduce<State, Action> { state, action in core(&state, action) }
        }
        .reduce(into: &state, action: action)
    }

    func core(_ state: inout State, _ action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return .run { [authClient] send in
                for await session in await authClient.sessionChanges() {
                    await send(.sessionChanged(session))
                }
            }
            .cancellable(id: CancelID.sessions, cancelInFlight: true)

        case .sessionChanged(let session):
            // The same person again (a refreshed token): nothing to route.
            if let session, session.userID == state.session?.userID, state.route != .launching {
                state.session = session
                return .none
            }
            guard let session else {
                let wasSignedIn = state.session != nil
                state = State(route: .signIn)
                return wasSignedIn ? stopSignedInWork() : .none
            }
            state.session = session
            return loadProfile()

        case .auth(.verified(let session)):
            // The session stream will say the same; acting here too keeps sign-in snappy
            // on adapters whose stream lags.
            guard state.session?.userID != session.userID else { return .none }
            state.session = session
            return loadProfile()

        case .profileLoaded(.success(let profile)):
            state.errorMessage = nil
            state.route = profile.isOnboarded ? .main : .onboarding
            return .none

        case .profileLoaded(.failure(let error)):
            state.errorMessage = error.message
            state.route = .signIn
            return .none

        case .onboarding(.finished):
            state.route = .main
            state.tab = .checkIn
            return .none

        case .profile(.signedOut):
            state = State(route: .signIn)
            return stopSignedInWork()

        case .tabSelected(let tab):
            state.tab = tab
            return .none

        case .auth, .onboarding, .checkIn, .checkInSettings, .sos, .dependents, .responders, .contacts, .myQRCode, .pings,
            .notifications, .profile:
            return .none
        }
    }

    /// Ends what runs on the signed-in person's behalf (the countdown, live streams, a
    /// profile read), so nothing of theirs reaches the screen after they leave.
    private func stopSignedInWork() -> Effect<Action> {
        .merge(
            .cancel(id: CancelID.profile), .cancel(id: CheckInFeature.CancelID.timer),
            .cancel(id: NotificationCentreFeature.CancelID.stream), .cancel(id: ProfileFeature.CancelID.stream),
            .cancel(id: MyQRCodeFeature.CancelID.fetch), .cancel(id: MyQRCodeFeature.CancelID.expiry))
    }

    private func loadProfile() -> Effect<Action> {
        .run { [userClient] send in
            await send(.profileLoaded(Result { try await userClient.profile() }.mapError(DomainError.init)))
        }
        .cancellable(id: CancelID.profile, cancelInFlight: true)
    }
}
