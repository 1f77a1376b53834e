import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The check-in PIN and duress PIN: whether they are set, and setting or removing them.
///
/// The PINs typed are held only until the save answers, then cleared from the state, so a
/// screen left open (or a state dump) does not keep them. ``CheckInPIN``'s rules are checked
/// before any request, in the rule's own words.
public struct CheckInPINFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var settings: CheckInPINSettings?
        public var pin: String
        public var duressPIN: String
        public var isSaving: Bool
        public var errorMessage: String?

        public init(
            settings: CheckInPINSettings? = nil, pin: String = "", duressPIN: String = "", isSaving: Bool = false, errorMessage: String? = nil
        ) {
            self.settings = settings
            self.pin = pin
            self.duressPIN = duressPIN
            self.isSaving = isSaving
            self.errorMessage = errorMessage
        }
    }

    public enum Action: Equatable, Sendable {
        case task
        case loaded(Result<CheckInPINSettings, DomainError>)
        case pinChanged(String)
        case duressPINChanged(String)
        /// Saves the PIN typed, with the duress PIN typed (none when that field is empty).
        case saveTapped
        /// Stops asking for a PIN: both PINs are removed.
        case removeTapped
        case saved(Result<CheckInPINSettings, DomainError>)
    }

    @Dependency(\.checkInClient) var checkIns

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return .run { [checkIns] send in
                await send(.loaded(Result { try await checkIns.pinSettings() }.mapError(DomainError.init)))
            }

        case .loaded(.success(let settings)):
            state.settings = settings
            return .none

        case .loaded(.failure(let error)):
            state.errorMessage = error.message
            return .none

        case .pinChanged(let pin):
            state.pin = pin
            return .none

        case .duressPINChanged(let pin):
            state.duressPIN = pin
            return .none

        case .saveTapped:
            guard !state.isSaving else { return .none }
            let pin = state.pin
            let duress = state.duressPIN.isEmpty ? nil : state.duressPIN
            do { try CheckInPIN.validate(pin: pin, duressPIN: duress) } catch {
                state.errorMessage = error.message
                return .none
            }
            return save(&state, pin: pin, duress: duress)

        case .removeTapped:
            guard !state.isSaving else { return .none }
            return save(&state, pin: nil, duress: nil)

        case .saved(.success(let settings)):
            state.isSaving = false
            state.settings = settings
            return .none

        case .saved(.failure(let error)):
            state.isSaving = false
            state.errorMessage = error.message
            return .none
        }
    }

    private func save(_ state: inout State, pin: String?, duress: String?) -> Effect<Action> {
        state.isSaving = true
        state.errorMessage = nil
        state.pin = ""
        state.duressPIN = ""
        return .run { [checkIns] send in
            await send(.saved(Result { try await checkIns.setPINs(pin, duress) }.mapError(DomainError.init)))
        }
    }
}
