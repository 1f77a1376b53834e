import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain

/// "Test my responders": sends a test alert and shows, per responder, what reached them and
/// whether they confirmed; a responder nothing outside the app reached is listed in
/// ``State/unreachable`` for the screen's warning.
public struct TestAlertFeature: Reducer {
    public struct State: Equatable, Sendable {
        public var report: TestAlertReport?
        public var isSending: Bool
        public var errorMessage: String?

        public init(report: TestAlertReport? = nil, isSending: Bool = false, errorMessage: String? = nil) {
            self.report = report
            self.isSending = isSending
            self.errorMessage = errorMessage
        }

        /// Responders no channel outside the app reached: they are warned about, not skipped.
        public var unreachable: [TestAlertReport.Responder] { report?.responders.filter(\.isUnreachable) ?? [] }
    }

    public enum Action: Equatable, Sendable {
        /// The screen appeared, or the person pulled to refresh: read the last test.
        case task
        case loaded(Result<TestAlertReport?, DomainError>)
        case sendTapped
        case sent(Result<TestAlertReport, DomainError>)
    }

    @Dependency(\.alertClient) var alerts

    public init() {}

    public func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .task:
            return .run { [alerts] send in
                await send(.loaded(Result { try await alerts.testAlert() }.mapError(DomainError.init)))
            }
        case .loaded(.success(let report)):
            state.report = report
            return .none
        case .loaded(.failure(let error)), .sent(.failure(let error)):
            state.isSending = false
            state.errorMessage = error.message
            return .none
        case .sendTapped:
            guard !state.isSending else { return .none }
            state.isSending = true
            state.errorMessage = nil
            return .run { [alerts] send in
                await send(.sent(Result { try await alerts.sendTestAlert() }.mapError(DomainError.init)))
            }
        case .sent(.success(let report)):
            state.isSending = false
            state.report = report
            return .none
        }
    }
}
