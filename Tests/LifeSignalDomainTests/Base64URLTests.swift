import Foundation
import LifeSignalDomain
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    @Test("encodes without padding in the URL alphabet, and reads its own output back", arguments: 0..<40)
    func roundTrip(length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let text = Base64URL.encode(bytes)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(text.count == (length * 4 + 2) / 3)
        #expect(Base64URL.decode(text) == bytes)
    }

    @Test("the alphabet's two URL characters stand for 62 and 63")
    func alphabet() {
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test("one spelling per value: padding, +, /, spaces, a lone character and unused bits set are refused")
    func refusals() {
        for text in ["AQ==", "+_8", "/_8", "AQ ", " AQ", "A", "AR", "AQI", "AQJ", "ab\u{0}c"] where text != "AQI" {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
        #expect(Base64URL.decode("AQ") == [1])
        #expect(Base64URL.decode("AQI") == [1, 2])
        #expect(Base64URL.decode("") == [])
    }
}
