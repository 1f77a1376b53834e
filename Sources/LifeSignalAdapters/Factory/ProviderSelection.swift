import Foundation
import LifeSignalDomain

/// A backend that can fill a client (seed `003_…`'s `.firebase`, `.supabase`, and the
/// embedded `.local`).
public enum BackendProvider: String, Sendable, Hashable, CaseIterable {
    case local
    case supabase
    case firebase
}

/// One thing a backend provides, chosen per capability.
public enum Capability: String, Sendable, Hashable, CaseIterable {
    case auth
    case checkIn = "check_in"
    case contacts
    case alerts
    case pings
    case notifications
    case content
    case user
    /// Firestore-style documents under `users/{uid}` (``DocumentsClient``).
    case documents
    /// Functions called by name (``CloudFunctionClient``).
    case functions
    /// Files in buckets (``FileStorageClient``).
    case files
    /// This device's token, topics and messages (``MessagingClient``).
    case messaging
}

/// Which provider fills each capability: one default, and overrides.
///
/// From the environment: `LIFESIGNAL_PROVIDER` sets the default (`local` when unset) and
/// `LIFESIGNAL_PROVIDER_<CAPABILITY>` overrides one capability, e.g.
/// `LIFESIGNAL_PROVIDER=supabase LIFESIGNAL_PROVIDER_CONTENT=local`.
public struct ProviderSelection: Sendable, Hashable {
    public var defaultProvider: BackendProvider
    public var overrides: [Capability: BackendProvider]

    public init(default defaultProvider: BackendProvider = .local, overrides: [Capability: BackendProvider] = [:]) {
        self.defaultProvider = defaultProvider
        self.overrides = overrides
    }

    public func provider(for capability: Capability) -> BackendProvider {
        overrides[capability] ?? defaultProvider
    }

    /// Reads the selection from environment variables; an unknown provider name is
    /// ``DomainError/invalidArgument(_:)`` naming the variable.
    public init(environment: [String: String]) throws {
        func provider(_ variable: String) throws -> BackendProvider? {
            guard let text = environment[variable]?.trimmingCharacters(in: .whitespaces).lowercased(), !text.isEmpty else { return nil }
            guard let provider = BackendProvider(rawValue: text) else {
                throw DomainError.invalidArgument("\(variable)=\(text) is not a provider; use local, supabase or firebase")
            }
            return provider
        }
        self.init(default: try provider("LIFESIGNAL_PROVIDER") ?? .local)
        for capability in Capability.allCases {
            if let chosen = try provider("LIFESIGNAL_PROVIDER_" + capability.rawValue.uppercased()) { overrides[capability] = chosen }
        }
    }
}
