import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

@testable import LifeSignalFeatures

/// The test alert screen: loads the last test, sends a new one, warns about whom nothing reached.
@MainActor
@Suite(.reportsIssues) struct TestAlertFeatureTests {
    static let maya = TestAlertReport.Responder(
        id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a001") ?? UUID()), name: "Maya",
        attempts: [.init(channel: .sms, status: "delivered")], confirmedAt: Date(timeIntervalSince1970: 1_800_000_060), confirmedBy: "link")
    static let sam = TestAlertReport.Responder(id: UserID(UUID(uuidString: "00000000-0000-4000-8000-00000000a003") ?? UUID()), name: "Sam", attempts: [])

    @Test func loadsThenSendsAndWarnsAboutTheUnreachable() async throws {
        let report = TestAlertReport(sentAt: Date(timeIntervalSince1970: 1_800_000_000), responders: [Self.maya, Self.sam])
        let store = TestStore(initialState: TestAlertFeature.State()) {
            TestAlertFeature()
        } withDependencies: {
            $0.alertClient.testAlert = { nil }
            $0.alertClient.sendTestAlert = { report }
        }
        await store.send(.task)
        await store.receive(.loaded(.success(nil)))
        await store.send(.sendTapped) { $0.isSending = true }
        await store.receive(.sent(.success(report))) {
            $0.isSending = false
            $0.report = report
        }
        #expect(store.state.unreachable.map(\.name) == ["Sam"])
    }

    @Test func aRefusalIsShown() async throws {
        let store = TestStore(initialState: TestAlertFeature.State()) {
            TestAlertFeature()
        } withDependencies: {
            $0.alertClient.sendTestAlert = { throw DomainError.rateLimited(retryAfter: 86400) }
        }
        await store.send(.sendTapped) { $0.isSending = true }
        await store.receive(.sent(.failure(.rateLimited(retryAfter: 86400)))) {
            $0.isSending = false
            $0.errorMessage = "Too many requests; retry in 86400 s"
        }
    }
}
