import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension FirebaseAdapters {
    /// Cloud functions called as raw callables: the body becomes the callable's `data` and
    /// its `result` is the reply. A body that is not JSON cannot be wrapped in `{"data": …}`,
    /// so it is refused here, as the other backends' functions refuse it.
    public var cloudFunctionClient: CloudFunctionClient {
        let adapters = self
        return CloudFunctionClient(call: { name, body in
            let data: FirebaseJSON
            if body.isEmpty {
                data = .null
            } else {
                do { data = try JSONDecoder().decode(FirebaseJSON.self, from: body) } catch {
                    throw DomainError.invalidArgument("Invalid JSON body")
                }
            }
            let result: FirebaseJSON = try await adapters.call(name, data)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            do { return try encoder.encode(result) } catch {
                throw DomainError.internal("The reply of \(name) does not encode as JSON")
            }
        })
    }
}
