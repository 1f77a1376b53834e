import Foundation
import LifeSignalDomain

/// A Firebase project, in production or in the Local Emulator Suite.
///
/// | variable | meaning |
/// |---|---|
/// | `LIFESIGNAL_FIREBASE_PROJECT_ID` | the project (required) |
/// | `LIFESIGNAL_FIREBASE_API_KEY` | the web API key (required unless on the emulators) |
/// | `LIFESIGNAL_FIREBASE_REGION` | the functions' region, `us-central1` by default |
/// | `LIFESIGNAL_FIREBASE_STORAGE_BUCKET` | the Storage bucket for avatars; none refuses avatars |
/// | `LIFESIGNAL_FIREBASE_EMULATOR_HOST` | a host running the emulators on their default ports |
public struct FirebaseSettings: Sendable, Hashable {
    public var projectID: String
    public var apiKey: String?
    public var region: String
    /// The Storage bucket for avatars (`nil` refuses avatars); the emulators always use
    /// `<project>.appspot.com`.
    public var storageBucket: String?
    /// When set, the adapters talk to the emulators there (Auth 9099, Functions 5001,
    /// Storage 9199, Firestore 8080) and need no API key.
    public var emulatorHost: String?

    public init(
        projectID: String, apiKey: String? = nil, region: String = "us-central1", storageBucket: String? = nil,
        emulatorHost: String? = nil
    ) {
        self.projectID = projectID
        self.apiKey = apiKey
        self.region = region
        self.storageBucket = storageBucket
        self.emulatorHost = emulatorHost
    }

    /// Reads the settings of a selected Firebase provider.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` naming a missing required variable, or
    ///   one whose value cannot be part of a host name or URL.
    public init(_ values: ConfigurationValues) throws(DomainError) {
        /// Project ids and regions become part of host names: lower-case letters, digits and hyphens.
        func name(_ variable: String, _ value: String) throws(DomainError) -> String {
            guard !value.isEmpty, value.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else {
                throw values.invalid(variable, "is not a name of lower-case letters, digits and hyphens")
            }
            return value
        }
        let projectID = try name("LIFESIGNAL_FIREBASE_PROJECT_ID", try values.required("LIFESIGNAL_FIREBASE_PROJECT_ID", by: .firebase))
        let region = try name("LIFESIGNAL_FIREBASE_REGION", values["LIFESIGNAL_FIREBASE_REGION"] ?? "us-central1")
        let emulatorHost = values["LIFESIGNAL_FIREBASE_EMULATOR_HOST"]
        if let emulatorHost, emulatorHost.contains(where: { $0 == "/" || $0 == ":" || $0.isWhitespace }) {
            throw values.invalid("LIFESIGNAL_FIREBASE_EMULATOR_HOST", "is not a host name (no scheme or port: the emulators' default ports are used)")
        }
        let apiKey = emulatorHost == nil ? try values.required("LIFESIGNAL_FIREBASE_API_KEY", by: .firebase) : values["LIFESIGNAL_FIREBASE_API_KEY"]
        self.init(
            projectID: projectID, apiKey: apiKey, region: region, storageBucket: values["LIFESIGNAL_FIREBASE_STORAGE_BUCKET"],
            emulatorHost: emulatorHost)
    }

    /// Adapters for the emulators when ``emulatorHost`` is set, else for production.
    public func adapters() throws(DomainError) -> FirebaseAdapters {
        do {
            if let emulatorHost { return try FirebaseAdapters.emulator(host: emulatorHost, projectID: projectID, region: region) }
            guard let apiKey else { throw DomainError.invalidArgument("The firebase provider needs LIFESIGNAL_FIREBASE_API_KEY") }
            return try FirebaseAdapters(apiKey: apiKey, projectID: projectID, region: region, storageBucket: storageBucket)
        } catch let error as DomainError { throw error } catch {
            throw .invalidArgument("The Firebase settings do not make adapters: \(error)")
        }
    }
}
