import LifeSignalDomain

/// The code of the domain error a call throws, so contract tests compare kinds of refusal
/// rather than messages (each wire words its own).
enum ErrorCodes {
    static func of(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as DomainError {
            return error.code
        } catch {
            return "not a DomainError: \(error)"
        }
    }
}
