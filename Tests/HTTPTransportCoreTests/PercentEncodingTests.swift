import Foundation
import Testing

@testable import HTTPTransportCore

/// The encoding both wire clients build URLs with: only unreserved characters and the ones a
/// client names are kept, so `+`, `/` and `&` in user input never change a URL's meaning.
@Suite struct PercentEncodingTests {
    @Test func keepsOnlyUnreservedCharacters() {
        #expect(percentEncode("a/b+c d") == "a%2Fb%2Bc%20d")
        #expect(percentEncode("!*'();:@&=$,?#[]%") == "%21%2A%27%28%29%3B%3A%40%26%3D%24%2C%3F%23%5B%5D%25")
        #expect(percentEncode("-._~AZaz09") == "-._~AZaz09")
        #expect(percentEncode("é\n") == "%C3%A9%0A")
    }

    @Test func keepsTheExtraCharactersAskedFor() {
        #expect(percentEncode("a/b?c d", keeping: "/?") == "a/b?c%20d")
        #expect(percentEncode("(default)", keeping: "()") == "(default)")
    }

    @Test func queriesKeepTheirOrder() {
        #expect(percentEncodedQuery([("b", "2 3"), ("a", "x&y")]) == "b=2%203&a=x%26y")
        #expect(percentEncodedQuery([("select", "a/b")], keeping: "/") == "select=a/b")
    }

    @Test func onlyAbsoluteHTTPURLsPass() throws {
        #expect(try httpURL("https://example.test/a%20b").absoluteString == "https://example.test/a%20b")
        for bad in ["file:///tmp", "example.test/a", "https://", "ftp://example.test"] {
            #expect(throws: TransportError.invalidURL(bad)) { try httpURL(bad) }
        }
        #expect(try httpURL("http://127.0.0.1:8080//").baseWithoutTrailingSlash == "http://127.0.0.1:8080")
    }
}
