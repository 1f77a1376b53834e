import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// The "My QR code" screen: the code someone scans to link to me, shown only while this screen
/// is, and only to me.
///
/// A code is short-lived and links one person (docs/security.md, "Consent"): showing it is the
/// consent to be linked, so a photo of it is worth nothing minutes later. The screen asks
/// ``ContactsClient/qrCode`` for the current code when it appears, and again when that code
/// expires, waiting on `\.continuousClock` (tests move a test clock; nothing really sleeps).
/// "New code" replaces the code at once, for a code shown to the wrong person.
public struct MyQRCodeFeature: Reducer {
    public struct State: Equatable, Sendable {
        /// The code on screen; `nil` until the first one arrives.
        public var code: QRCode?
        public var isLoading: Bool
        public var errorMessage: String?

        public init(code: QRCode? = nil, isLoading: Bool = false, errorMessage: String? = nil) {
            self.code = code
            self.isLoading = isLoading
            self.errorMessage = errorMessage
        }
    }

    public enum Action: Equatable, Sendable {
        /// The screen appeared: fetch the code.
        case task
        /// The screen went away: stop waiting for the code to expire.
        case onDisappear
        case loaded(Result<QRCode, DomainError>)
        /// The code on screen has expired: fetch its successor.
        case expired
        case newCodeTapped
        case errorDismissed
    }

    /// However early the server's expiry looks on this device's clock, the screen waits this
    /// long before asking again, so a clock that runs ahead cannot make it ask in a loop.
    public static let minimumRefreshDelay: Duration = .seconds(5)

    enum CancelID { case fetch, expiry }

    @Dependency(\.contactsClient) var client
    @Dependency(\.continuousClock) var clock
    @Dependency(\.date) var date

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return fetch(&state) { [client] in try await client.qrCode() }

        case .expired:
            // An expired code links nobody: it leaves the screen rather than fail a scan.
            state.code = nil
            return fetch(&state) { [client] in try await client.qrCode() }

        case .newCodeTapped:
            guard !state.isLoading else { return .none }
            return fetch(&state) { [client] in try await client.resetQRCode() }

        case .onDisappear:
            state.isLoading = false
            return .merge(.cancel(id: CancelID.fetch), .cancel(id: CancelID.expiry))

        case .loaded(.success(let code)):
            state.isLoading = false
            state.code = code
            let wait = max(Duration.seconds(code.expiresAt.timeIntervalSince(date.now)), Self.minimumRefreshDelay)
            return .run { [clock] send in
                try await clock.sleep(for: wait)
                await send(.expired)
            }
            .cancellable(id: CancelID.expiry, cancelInFlight: true)

        case .loaded(.failure(let error)):
            state.isLoading = false
            state.errorMessage = error.message
            return .none

        case .errorDismissed:
            state.errorMessage = nil
            return .none
        }
    }

    private func fetch(_ state: inout State, _ operation: @escaping @Sendable () async throws -> QRCode) -> Effect<Action> {
        state.isLoading = true
        state.errorMessage = nil
        return .run { send in
            await send(.loaded(Result { try await operation() }.mapError(DomainError.init)))
        }
        .cancellable(id: CancelID.fetch, cancelInFlight: true)
    }
}
