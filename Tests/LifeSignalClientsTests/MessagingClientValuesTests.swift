import Dependencies
import Foundation
import LifeSignalClients
import LifeSignalDomain
import Testing

/// ``MessagingClient``'s test and preview values.
@Suite("Messaging client values")
struct MessagingClientValuesTests {
    @Test("the test value fails any call a test did not override")
    func testValueIsUnimplemented() async throws {
        await withKnownIssue { _ = try await MessagingClient.testValue.token() }
        await withKnownIssue { try await MessagingClient.testValue.deleteToken() }
        await withKnownIssue { try await MessagingClient.testValue.subscribe("news") }
        await withKnownIssue { try await MessagingClient.testValue.unsubscribe("news") }
        withKnownIssue { _ = MessagingClient.testValue.tokenStream() }
        withKnownIssue { _ = MessagingClient.testValue.messageStream() }
    }

    @Test("the preview device: a stable token until deleted, topics by FCM's rule, a message to show")
    func preview() async throws {
        let client = MessagingClient.previewValue
        let token = try await client.token()
        #expect(token.hasPrefix("ls1.") && token.count == 47)
        #expect(try await client.token() == token)
        var tokens = client.tokenStream().makeAsyncIterator()
        #expect(await tokens.next() == token)
        try await client.deleteToken()
        #expect(try await client.token() != token)

        try await client.subscribe("weather.eu")
        try await client.unsubscribe("weather.eu")
        await #expect(throws: DomainError.invalidArgument(MessagingRules.topicRuleMessage)) { try await client.subscribe("not a topic") }
        var messages = client.messageStream().makeAsyncIterator()
        let first = await messages.next()
        #expect(first?.title == "Ping from Maya" && first?.data["type"] == "ping_received")
    }

    @Test("installed under \\.messagingClient")
    func dependency() async throws {
        let client = withDependencies {
            $0.messagingClient = .previewValue
        } operation: {
            @Dependency(\.messagingClient) var messaging
            return messaging
        }
        #expect(try await client.token().hasPrefix("ls1."))
    }
}
