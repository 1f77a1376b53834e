import Testing

@testable import HTTPTransportCore

/// Header names compare case-insensitively everywhere: servers and transports disagree on
/// spelling (`Content-Range`, `content-range`).
@Suite struct HTTPHeadersTests {
    @Test func namesAreCaseInsensitive() {
        var headers: HTTPHeaders = ["Content-Type": "a"]
        headers["content-type"] = "b"
        #expect(headers.count == 1)
        #expect(headers["CONTENT-TYPE"] == "b")
        headers["Content-Type"] = nil
        #expect(headers.count == 0)
    }

    @Test func replacingKeepsThePositionAndTheNewSpelling() {
        var headers: HTTPHeaders = ["A": "1", "B": "2", "C": "3"]
        headers["b"] = "two"
        #expect(headers.map(\.name) == ["A", "b", "C"])
        #expect(headers.map(\.value) == ["1", "two", "3"])
    }

    @Test func mergeLetsTheOtherSetWin() {
        var headers: HTTPHeaders = ["Authorization": "Bearer key", "apikey": "k"]
        headers.merge(["authorization": "Bearer user", "X-Extra": "1"])
        #expect(headers.lowercasedDictionary == ["authorization": "Bearer user", "apikey": "k", "x-extra": "1"])
    }

    @Test func equalityIgnoresOrderAndCase() {
        let one: HTTPHeaders = ["A": "1", "b": "2"]
        let other = HTTPHeaders(["B": "2", "a": "1"])
        #expect(one == other)
        #expect(one != ["A": "1", "b": "3"])
    }

    @Test func requestsAndResponsesLookUpAnySpelling() {
        let request = HTTPRequest(method: .get, url: exampleURL, headers: ["Authorization": "Bearer t"])
        #expect(request.header("authorization") == "Bearer t")
        let response = HTTPResponse(status: 204, headers: ["retry-after": "2"])
        #expect(response.header("Retry-After") == "2")
        #expect(response.isSuccess && response.statusCode == 204)
        #expect(!HTTPResponse(status: 302).isSuccess)
    }
}
