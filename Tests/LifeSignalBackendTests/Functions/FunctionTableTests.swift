import Foundation
import LifeSignalDomain
import LifeSignalFunctions
import Testing

@testable import LifeSignalBackend

@Suite("The function table")
struct FunctionTableTests {
    @Test("the backend registers exactly the catalogued functions, once each")
    func registryMatchesTheCatalogue() {
        #expect(BackendFunctions.names == Set(CloudFunctions.names))
        #expect(BackendFunctions.registry.handlers.count == CloudFunctions.names.count)
    }

    static func registration(_ name: String) -> BackendFunctions.Registration {
        BackendFunctions.Registration(name: name) { _, _, _ in Data("{}".utf8) }
    }

    @Test("a name registered twice is refused, not silently shadowed")
    func duplicateIsRefused() {
        #expect(throws: FunctionTable.Problem.registeredTwice("a")) {
            try FunctionTable([Self.registration("a"), Self.registration("b"), Self.registration("a")], catalogue: ["a", "b"])
        }
    }

    @Test("a catalogued function without a handler, or a handler without an entry, is refused")
    func catalogueMismatchIsRefused() {
        #expect(throws: FunctionTable.Problem.noHandler("b")) {
            try FunctionTable([Self.registration("a")], catalogue: ["a", "b"])
        }
        #expect(throws: FunctionTable.Problem.notInCatalogue("c")) {
            try FunctionTable([Self.registration("a"), Self.registration("c")], catalogue: ["a"])
        }
        #expect(throws: Never.self) { try FunctionTable([Self.registration("a")], catalogue: ["a"]) }
    }
}
