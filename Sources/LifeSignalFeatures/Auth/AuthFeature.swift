import Dependencies
import LifeSignalClients
import LifeSignalDomain

/// Signing in by phone: enter a number, receive a 6-digit code by SMS, enter it, and get a
/// session; and signing out again.
///
/// Input is validated here with the domain's own parsers (``PhoneNumber``, ``OneTimeCode``)
/// before any request is made, so a typo is explained at once instead of costing an SMS or a
/// guess. The server still has the last word: its errors (wrong code, expired code, too many
/// attempts) decide where the person goes next. Only ``AuthClient`` is used, so the feature
/// works unchanged on every backend.
public struct AuthFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// Where the person is in the flow.
        public enum Step: Equatable, Sendable {
            case enterPhone
            /// A code was sent to this number; it is kept here, not re-read from `phoneText`,
            /// so editing the text field cannot change which number the code is checked against.
            case enterCode(PhoneNumber)
            case signedIn(AuthSession)
        }

        /// Where the number is from; a number typed without `+` is read as one of this region.
        public var region: PhoneRegion
        public var phoneText: String
        public var codeText: String
        public var step: Step
        /// A request is in flight; buttons are disabled and repeated taps ignored.
        public var isSending: Bool
        /// The last failure, as ``DomainError/message`` words it.
        public var errorMessage: String?
        /// Codes submitted for the current SMS. The server allows
        /// ``OneTimeCode/maximumAttempts``; the count lets the screen say how many are left.
        public var attempts: Int

        public init(
            region: PhoneRegion = .unitedStates, phoneText: String = "", codeText: String = "", step: Step = .enterPhone,
            isSending: Bool = false, errorMessage: String? = nil, attempts: Int = 0
        ) {
            self.region = region
            self.phoneText = phoneText
            self.codeText = codeText
            self.step = step
            self.isSending = isSending
            self.errorMessage = errorMessage
            self.attempts = attempts
        }

        /// The session once signed in.
        public var session: AuthSession? {
            if case .signedIn(let session) = step { session } else { nil }
        }
    }

    public enum Action: Equatable, Sendable {
        /// The screen appeared: resume a session kept from an earlier launch.
        case task
        case sessionRestored(AuthSession?)
        case regionChanged(PhoneRegion)
        case phoneChanged(String)
        case codeChanged(String)
        case sendCodeTapped
        case codeSent(PhoneNumber)
        case sendCodeFailed(DomainError)
        case verifyTapped
        case verified(AuthSession)
        case verifyFailed(DomainError)
        /// Back from the code step to fix the number or ask for a new code.
        case changePhoneTapped
        case signOutTapped
        case signedOut
        case signOutFailed(DomainError)
    }

    @Dependency(\.authClient) var authClient

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return .run { [authClient] send in
                await send(.sessionRestored(await authClient.currentSession()))
            }

        case .sessionRestored(let session):
            guard let session else { return .none }
            state.step = .signedIn(session)
            return .none

        case .regionChanged(let region):
            state.region = region
            state.errorMessage = nil
            return .none

        case .phoneChanged(let text):
            state.phoneText = text
            return .none

        case .codeChanged(let text):
            state.codeText = text
            return .none

        case .sendCodeTapped:
            guard !state.isSending else { return .none }
            let phone: PhoneNumber
            do {
                phone = try state.region.number(from: state.phoneText)
            } catch {
                state.errorMessage =
                    state.phoneText.hasPrefix("+")
                    ? error.message
                    : "\"\(state.phoneText)\" is not a \(state.region.name) number: it should have \(state.region.expectedDigits)"
                return .none
            }
            state.isSending = true
            state.errorMessage = nil
            return .run { [authClient] send in
                do {
                    try await authClient.sendCode(phone)
                    await send(.codeSent(phone))
                } catch {
                    await send(.sendCodeFailed(DomainError(error)))
                }
            }

        case .codeSent(let phone):
            state.isSending = false
            state.step = .enterCode(phone)
            state.codeText = ""
            state.attempts = 0
            return .none

        case .sendCodeFailed(let error):
            state.isSending = false
            state.errorMessage = error.message
            return .none

        case .verifyTapped:
            guard !state.isSending, case .enterCode(let phone) = state.step else { return .none }
            let code: OneTimeCode
            do {
                code = try OneTimeCode(state.codeText)
            } catch {
                state.errorMessage = error.message
                return .none
            }
            state.isSending = true
            state.errorMessage = nil
            state.attempts += 1
            return .run { [authClient] send in
                do {
                    await send(.verified(try await authClient.verifyCode(phone, code)))
                } catch {
                    await send(.verifyFailed(DomainError(error)))
                }
            }

        case .verified(let session):
            state.isSending = false
            state.step = .signedIn(session)
            state.codeText = ""
            state.attempts = 0
            return .none

        case .verifyFailed(let error):
            state.isSending = false
            state.errorMessage = error.message
            state.codeText = ""
            switch error {
            case .otpExpired, .tooManyAttempts:
                // This code can never succeed now; only a new SMS helps.
                state.step = .enterPhone
                state.attempts = 0
            default:
                // A wrong code, or a failure on the way: the same code may be tried again.
                break
            }
            return .none

        case .changePhoneTapped:
            guard !state.isSending, case .enterCode = state.step else { return .none }
            state.step = .enterPhone
            state.codeText = ""
            state.attempts = 0
            state.errorMessage = nil
            return .none

        case .signOutTapped:
            guard !state.isSending, case .signedIn = state.step else { return .none }
            state.isSending = true
            state.errorMessage = nil
            return .run { [authClient] send in
                do {
                    try await authClient.signOut()
                    await send(.signedOut)
                } catch {
                    await send(.signOutFailed(DomainError(error)))
                }
            }

        case .signedOut:
            // Nothing of the previous person may stay on screen for the next one.
            state = State()
            return .none

        case .signOutFailed(let error):
            // Stay signed in: a person who is still signed in keeps checking in, which is the
            // safe side to err on; they can retry.
            state.isSending = false
            state.errorMessage = error.message
            return .none
        }
    }
}
