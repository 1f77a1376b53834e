import Testing

@testable import LifeSignalServer

@Suite("REST error codes")
struct RESTErrorCodeTests {
    @Test("a SQLSTATE the server also raises itself reads as the named code; any other passes through unchanged")
    func sqlStates() {
        #expect(RESTErrorCode(sqlState: "42501") == .insufficientPrivilege)
        #expect(RESTErrorCode(sqlState: "23505") == .sqlState("23505"))
        #expect(RESTErrorCode(sqlState: "23505").rawValue == "23505")
        #expect(RESTErrorCode.insufficientPrivilege.rawValue == "42501")
    }

    @Test("every named code has its own wire text, and reads back as itself")
    func distinct() {
        let codes: [RESTErrorCode] = [
            .internalError, .databaseUnreachable, .unparsableQuery, .invalidBody, .unsatisfiableRange, .invalidPut, .unacceptableMediaType,
            .putWithLimits, .putKeyMismatch, .notSingular, .unknownBodyColumn, .unknownTable, .invalidToken, .expiredToken, .bodyTooLarge,
            .insufficientPrivilege, .cardinalityViolation, .undefinedFunction, .undefinedColumn, .invalidTextRepresentation,
            .invalidDatetimeFormat, .invalidParameterValue, .characterNotInRepertoire,
        ]
        #expect(Set(codes.map(\.rawValue)).count == codes.count)
        for code in codes { #expect(RESTErrorCode(sqlState: code.rawValue) == code) }
        #expect(codes.filter(\.isTokenRefusal) == [.invalidToken, .expiredToken])
    }
}
