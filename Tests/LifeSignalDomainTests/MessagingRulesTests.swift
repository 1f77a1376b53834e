import Foundation
import LifeSignalDomain
import Testing

@Suite("Messaging rules")
struct MessagingRulesTests {
    @Test("topic names follow FCM's [a-zA-Z0-9-_.~%]{1,900}")
    func topics() throws {
        for good in ["news", "a", "A-Z_0.9~%", "weather-alerts.EU~1%", String(repeating: "x", count: 900)] {
            #expect(MessagingRules.isValidTopic(good), "\(good.prefix(20))")
            #expect(try MessagingRules.validateTopic(good) == good)
        }
        for bad in ["", " ", "has space", "/topics/news", "news/", "ünï", "emoji🙂", "tab\t", "a+b", "a#b", String(repeating: "x", count: 901)] {
            #expect(!MessagingRules.isValidTopic(bad), "\(bad.prefix(20))")
            #expect(throws: DomainError.invalidArgument(MessagingRules.topicRuleMessage)) { try MessagingRules.validateTopic(bad) }
        }
    }

    @Test("a device token carries 256 random bits, URL-safe, never the same twice")
    func tokens() {
        let tokens = (0..<200).map { _ in MessagingRules.makeDeviceToken() }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.hasPrefix("ls1.") && token.count == 4 + 43)
            #expect(token.dropFirst(4).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            let base64 = token.dropFirst(4).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "="
            #expect(Data(base64Encoded: base64)?.count == MessagingRules.tokenEntropyBytes)
        }
    }

    @Test("MessagingError reads the backend's refusals by code")
    func errors() {
        #expect(MessagingError(DomainError.unauthenticated) == .tokenUnavailable)
        #expect(MessagingError(DomainError(code: "not_found", message: "Push token was not found")) == .notRegistered)
        #expect(MessagingError(DomainError.notFound("User 1")) == .unknown(.notFound("User 1")))
        #expect(MessagingError(DomainError(code: "invalid_argument", message: MessagingRules.topicRuleMessage)) == .invalidTopic)
        #expect(MessagingError(DomainError.invalidArgument("A push has a title")) == .unknown(.invalidArgument("A push has a title")))
        #expect(MessagingError(DomainError.forbidden("Only the backend sends to topics")) == .permissionDenied)
        #expect(MessagingError(DomainError.internal("Could not reach Firebase: timed out")) == .network)
        #expect(MessagingError(DomainError.internal("boom")) == .unknown(.internal("boom")))
        #expect(MessagingError(MessagingError.invalidTopic as any Error) == .invalidTopic)
        #expect(MessagingError.notRegistered.errorDescription == "This device is not registered for messages; get a new token")
    }
}
