import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// One function's handler, registered under its ``CloudFunction``'s name.
    struct Registration: Sendable {
        let name: String
        let handler: Handler
    }

    /// Registers a typed handler: the body is decoded as the function's request (a body that is
    /// not is ``Failure/badRequest(_:)``), the reply encoded as its response.
    static func handle<Request: Decodable, Response: Encodable>(
        _ function: CloudFunction<Request, Response>,
        _ run: @escaping @Sendable (LifeSignalBackend, Caller, Request) async throws -> Response
    ) -> Registration {
        Registration(name: function.name) { backend, caller, body in
            try encode(try await run(backend, caller, try decode(Request.self, from: body)))
        }
    }

    /// Registers a handler that reads its body and writes its reply itself: the content
    /// functions, whose request and reply shapes depend on the table named inside.
    static func raw<Request, Response>(_ function: CloudFunction<Request, Response>, _ run: @escaping Handler) -> Registration {
        Registration(name: function.name, handler: run)
    }
}

/// The registered handlers by name, checked against the catalogue when built.
struct FunctionTable: Sendable {
    enum Problem: Error, Equatable, CustomStringConvertible {
        case registeredTwice(String)
        case notInCatalogue(String)
        case noHandler(String)

        var description: String {
            switch self {
            case .registeredTwice(let name): "\"\(name)\" has two handlers"
            case .notInCatalogue(let name): "\"\(name)\" has a handler but is not in CloudFunctions.names"
            case .noHandler(let name): "\"\(name)\" is in CloudFunctions.names but has no handler"
            }
        }
    }

    let handlers: [String: BackendFunctions.Handler]

    /// - Throws: ``Problem`` for the first name registered twice, registered but not
    ///   catalogued, or catalogued but not registered.
    init(_ registrations: [BackendFunctions.Registration], catalogue: [String]) throws(Problem) {
        var handlers: [String: BackendFunctions.Handler] = [:]
        for registration in registrations {
            guard handlers.updateValue(registration.handler, forKey: registration.name) == nil else {
                throw .registeredTwice(registration.name)
            }
        }
        let known = Set(catalogue)
        if let stray = registrations.first(where: { !known.contains($0.name) }) { throw .notInCatalogue(stray.name) }
        if let missing = catalogue.first(where: { handlers[$0] == nil }) { throw .noHandler(missing) }
        self.handlers = handlers
    }
}
