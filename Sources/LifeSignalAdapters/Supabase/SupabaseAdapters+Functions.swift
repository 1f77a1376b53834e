import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import SupabaseREST

extension SupabaseAdapters {
    /// Cloud functions invoked raw through Functions: the body goes as `application/json`
    /// and the reply comes back as sent; failures are mapped as every typed call's.
    public var cloudFunctionClient: CloudFunctionClient {
        let functions = client.functions
        return CloudFunctionClient(call: { name, body in
            try await Self.mapped {
                try await functions.invoke(
                    name, options: FunctionInvokeOptions(headers: ["Content-Type": "application/json"], body: body)
                ) { data, _ in data }
            }
        })
    }
}
