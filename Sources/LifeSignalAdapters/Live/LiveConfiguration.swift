import Foundation
import LifeSignalDomain

/// Everything the live clients need to open the configured providers: which provider
/// serves each capability, and the settings of each provider selected.
///
/// Read from the environment and, when `LIFESIGNAL_CONFIG` names one, a JSON file whose keys
/// are the variables' names without `LIFESIGNAL_`, in lower case (the environment wins).
/// Only the providers some capability uses need settings, so a Supabase app needs no
/// database and a local one no URL; a selected provider missing a required setting is
/// refused by name, before anything is opened.
public struct LiveConfiguration: Sendable, Hashable {
    public var selection: ProviderSelection
    /// The embedded backend's settings, when a capability is local.
    public var local: LocalSettings?
    /// The Supabase server's settings, when a capability is on Supabase.
    public var supabase: SupabaseSettings?
    /// The Firebase project's settings, when a capability is on Firebase.
    public var firebase: FirebaseSettings?

    /// A configuration built in code (an app that holds its settings itself, a test).
    public init(
        selection: ProviderSelection = ProviderSelection(), local: LocalSettings? = nil, supabase: SupabaseSettings? = nil,
        firebase: FirebaseSettings? = nil
    ) {
        self.selection = selection
        self.local = local
        self.supabase = supabase
        self.firebase = firebase
    }

    /// Reads `environment` and the file its `LIFESIGNAL_CONFIG` names.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` naming the variable or file key at fault.
    public init(environment: [String: String]) throws(DomainError) {
        try self.init(try ConfigurationValues(environment: environment))
    }

    /// Reads settings already merged.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` naming the variable or file key at fault.
    public init(_ values: ConfigurationValues) throws(DomainError) {
        // ProviderSelection names environment variables in its refusals; a bad name from the
        // file is refused here first, naming the key and the file instead.
        let providerVariables = ["LIFESIGNAL_PROVIDER"] + Capability.allCases.map(ConfigurationValues.providerVariable(for:))
        for variable in providerVariables where values.isFromFile(variable) {
            let name = values[variable]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard BackendProvider(rawValue: name) != nil else {
                throw values.invalid(variable, "is not a provider; use local, supabase or firebase")
            }
        }
        let selection: ProviderSelection
        do { selection = try ProviderSelection(environment: values.values) } catch let error as DomainError { throw error } catch {
            throw .invalidArgument("The provider selection cannot be read: \(error)")
        }
        let used = LiveConfiguration(selection: selection).providers
        self.init(
            selection: selection,
            local: used.contains(.local) ? try LocalSettings(values) : nil,
            supabase: used.contains(.supabase) ? try SupabaseSettings(values) : nil,
            firebase: used.contains(.firebase) ? try FirebaseSettings(values) : nil)
    }

    /// The providers some capability uses.
    public var providers: Set<BackendProvider> { Set(Capability.allCases.map(selection.provider(for:))) }
}
