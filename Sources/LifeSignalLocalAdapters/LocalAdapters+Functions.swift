import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// Cloud functions called in-process, as the signed-in person: the same registry
    /// `/functions/v1/<name>` serves, so a raw call here answers as it would over HTTP.
    public var cloudFunctionClient: CloudFunctionClient {
        let functions = backend.functions
        return CloudFunctionClient(call: { name, body in
            // As the server: an unknown name is not found before any token is looked at.
            guard BackendFunctions.names.contains(name) else { throw DomainError.notFound("Function \"\(name)\"") }
            let caller = try await caller()
            do { return try await functions.call(name, caller: caller, body: body) } catch BackendFunctions.Failure.badRequest(let why) {
                throw DomainError.invalidArgument(why)
            } catch BackendFunctions.Failure.unknownFunction(let name) {
                throw DomainError.notFound("Function \"\(name)\"")
            }
        })
    }
}
