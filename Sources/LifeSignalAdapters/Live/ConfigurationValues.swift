import Foundation
import LifeSignalDomain

/// LifeSignal's settings as one table of `LIFESIGNAL_…` variables: the environment over the
/// JSON file `LIFESIGNAL_CONFIG` names.
///
/// One table, keyed by the variable, so every reader (``LiveConfiguration``, the command line)
/// asks for a setting the same way wherever it was written, and an error can still say where
/// a bad value came from: the variable, or the key and the file. A file key is the variable's
/// name without `LIFESIGNAL_`, in lower case (`LIFESIGNAL_DATABASE_URL` is `"database_url"`),
/// so one rule covers both and nothing needs a second name.
public struct ConfigurationValues: Sendable, Hashable {
    /// The variable naming the JSON file.
    public static let fileVariable = "LIFESIGNAL_CONFIG"

    /// Every variable the file may set. The environment may hold others (test settings,
    /// other programs' variables); only the file, which is LifeSignal's alone, is checked.
    public static let variables: [String] =
        [
            "LIFESIGNAL_PROVIDER",
            "LIFESIGNAL_DATABASE_URL", "LIFESIGNAL_DATA_DIR", "LIFESIGNAL_JWT_SECRET", "LIFESIGNAL_TEST_OTP", "LIFESIGNAL_FCM_SERVICE_ACCOUNT",
            "LIFESIGNAL_URL", "LIFESIGNAL_ANON_KEY", "LIFESIGNAL_SESSION_FILE",
            "LIFESIGNAL_FIREBASE_API_KEY", "LIFESIGNAL_FIREBASE_PROJECT_ID", "LIFESIGNAL_FIREBASE_REGION",
            "LIFESIGNAL_FIREBASE_STORAGE_BUCKET", "LIFESIGNAL_FIREBASE_EMULATOR_HOST",
            // `serve`'s Firebase ID tokens (Sources/lifesignal/Commands/ServeFirebaseOptions.swift).
            "LIFESIGNAL_FIREBASE_KEYS_URL",
            // `serve`'s SMS channel (Sources/lifesignal/Delivery/TwilioSMSSender.swift).
            "LIFESIGNAL_TWILIO_ACCOUNT_SID", "LIFESIGNAL_TWILIO_AUTH_TOKEN", "LIFESIGNAL_TWILIO_FROM", "LIFESIGNAL_TWILIO_API_URL",
        ] + Capability.allCases.map(providerVariable(for:))

    /// `LIFESIGNAL_PROVIDER_<CAPABILITY>`, as ``ProviderSelection/init(environment:)`` reads it.
    public static func providerVariable(for capability: Capability) -> String {
        "LIFESIGNAL_PROVIDER_" + capability.rawValue.uppercased()
    }

    /// The key a variable has in the file.
    public static func fileKey(for variable: String) -> String {
        String(variable.dropFirst("LIFESIGNAL_".count)).lowercased()
    }

    /// Every value by variable name, empty ones left out (an empty variable is unset, as
    /// the command line has always read it).
    public let values: [String: String]
    /// The file read, if `LIFESIGNAL_CONFIG` named one.
    public let file: String?
    /// The variables whose value came from the file (the environment did not override them).
    private let fromFile: Set<String>

    /// Reads `environment`, and the file its `LIFESIGNAL_CONFIG` names, if any.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` when the file cannot be read, is not a
    ///   JSON object, has a key that is not a setting or a value that is not a string.
    public init(environment: [String: String]) throws(DomainError) {
        guard let path = environment[Self.fileVariable], !path.isEmpty else {
            self.init(environment: environment, file: nil, fileValues: [:])
            return
        }
        let contents: Data
        do { contents = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .invalidArgument("\(Self.fileVariable)=\(path) cannot be read")
        }
        try self.init(environment: environment, file: path, contents: contents)
    }

    /// Reads `environment` over a file's `contents` (`file` names it in errors).
    public init(environment: [String: String], file: String, contents: Data) throws(DomainError) {
        guard let object = (try? JSONSerialization.jsonObject(with: contents)) as? [String: Any] else {
            throw .invalidArgument("\(Self.fileVariable)=\(file) is not a JSON object")
        }
        let variablesByKey = Dictionary(uniqueKeysWithValues: Self.variables.map { (Self.fileKey(for: $0), $0) })
        var fileValues: [String: String] = [:]
        for key in object.keys.sorted() {
            guard let variable = variablesByKey[key] else {
                throw .invalidArgument(
                    "\"\(key)\" in \(file) is not a setting; a key is a LIFESIGNAL_ variable's name without the prefix, in lower case (\"provider\", \"database_url\", …)"
                )
            }
            guard let value = object[key] as? String else { throw .invalidArgument("\"\(key)\" in \(file) must be a string") }
            fileValues[variable] = value
        }
        self.init(environment: environment, file: file, fileValues: fileValues)
    }

    private init(environment: [String: String], file: String?, fileValues: [String: String]) {
        var values = fileValues.filter { !$0.value.isEmpty }
        for (variable, value) in environment where !value.isEmpty { values[variable] = value }
        self.values = values
        self.file = file
        self.fromFile = Set(fileValues.keys.filter { environment[$0]?.isEmpty ?? true })
    }

    /// The value of `variable`, or `nil` when neither the environment nor the file sets it.
    public subscript(variable: String) -> String? { values[variable] }

    /// Whether `variable`'s value came from the file.
    public func isFromFile(_ variable: String) -> Bool { fromFile.contains(variable) }

    /// Where `variable`'s value was written, with the value, for an error: `LIFESIGNAL_URL=x`
    /// or `"url": "x" in /etc/lifesignal.json`.
    public func described(_ variable: String) -> String {
        let value = values[variable] ?? ""
        guard isFromFile(variable), let file else { return "\(variable)=\(value)" }
        return "\"\(Self.fileKey(for: variable))\": \"\(value)\" in \(file)"
    }

    /// The refusal of a bad value: ``DomainError/invalidArgument(_:)`` naming where it was written.
    public func invalid(_ variable: String, _ why: String) -> DomainError {
        .invalidArgument("\(described(variable)) \(why)")
    }

    /// The value of a setting `provider` cannot do without.
    ///
    /// - Throws: ``DomainError/invalidArgument(_:)`` naming the variable and the file key.
    public func required(_ variable: String, by provider: BackendProvider) throws(DomainError) -> String {
        guard let value = values[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else {
            throw .invalidArgument(
                "The \(provider.rawValue) provider needs \(variable) (or \"\(Self.fileKey(for: variable))\" in the \(Self.fileVariable) file)")
        }
        return value
    }
}
