import Foundation
import LifeSignalDomain

extension ProfileFeature {
    public struct State: Equatable, Sendable {
        /// The profile as last loaded, streamed or saved; `nil` until the first load.
        public var profile: UserProfile?
        public var isLoading: Bool
        /// The edit form; `nil` when not editing.
        public var draft: Draft?
        /// The newest profile streamed in while editing, held back so the screen does not
        /// change under the person's hands; shown when they cancel.
        public var pendingProfile: UserProfile?
        /// The request in flight, if any; one at a time, so a second tap cannot race the first.
        public var activity: Activity?
        /// The phone change dialog; `nil` when closed.
        public var phoneChange: PhoneChange?
        /// "Reset QR code?" is showing.
        public var isConfirmingQRCodeReset: Bool
        /// What has been typed in the "type DELETE" dialog; `nil` when the dialog is closed.
        public var deleteConfirmationText: String?
        public var errorMessage: String?

        public init(
            profile: UserProfile? = nil, isLoading: Bool = false, draft: Draft? = nil, pendingProfile: UserProfile? = nil,
            activity: Activity? = nil, phoneChange: PhoneChange? = nil, isConfirmingQRCodeReset: Bool = false,
            deleteConfirmationText: String? = nil, errorMessage: String? = nil
        ) {
            self.profile = profile
            self.isLoading = isLoading
            self.draft = draft
            self.pendingProfile = pendingProfile
            self.activity = activity
            self.phoneChange = phoneChange
            self.isConfirmingQRCodeReset = isConfirmingQRCodeReset
            self.deleteConfirmationText = deleteConfirmationText
            self.errorMessage = errorMessage
        }

        public var isEditing: Bool { draft != nil }

        /// Whether "Delete account" may be pressed: the word has been typed exactly.
        public var canConfirmDelete: Bool {
            deleteConfirmationText.map(ProfileFieldRules.trim) == ProfileFeature.deleteConfirmationWord
        }
    }

    /// The request a button started, so the view can show progress on that button.
    public enum Activity: Equatable, Sendable {
        case saving
        case updatingAvatar
        case changingPhone
        case resettingQRCode
        case signingOut
        case deletingAccount
    }

    /// The fields the edit form changes.
    public struct Draft: Equatable, Sendable {
        public var firstName: String
        public var lastName: String
        public var emergencyNote: String
        public var notificationsEnabled: Bool

        public init(firstName: String, lastName: String, emergencyNote: String, notificationsEnabled: Bool) {
            self.firstName = firstName
            self.lastName = lastName
            self.emergencyNote = emergencyNote
            self.notificationsEnabled = notificationsEnabled
        }

        public init(_ profile: UserProfile) {
            self.init(
                firstName: profile.firstName, lastName: profile.lastName, emergencyNote: profile.emergencyNote,
                notificationsEnabled: profile.notificationsEnabled)
        }

        /// Only the fields that differ from `profile`, checked against the server's limits.
        ///
        /// Sending only what changed means a field edited on another device meanwhile is not
        /// overwritten with the value this form started from.
        func changes(from profile: UserProfile) throws(DomainError) -> ProfileUpdate {
            var update = ProfileUpdate()
            let first = try ProfileFieldRules.firstName(firstName)
            if first != profile.firstName { update.firstName = first }
            let last = ProfileFieldRules.trim(lastName)
            if last != profile.lastName {
                // The server stores a last name of 2–50 characters or keeps the old one; it has
                // no way to clear it, so say so rather than let it refuse a blank.
                guard !last.isEmpty else {
                    throw .invalidArgument("A last name can be changed but not removed")
                }
                update.lastName = try ProfileFieldRules.name(last, field: "Last name")
            }
            let note = try ProfileFieldRules.note(emergencyNote)
            if note != profile.emergencyNote { update.emergencyNote = note }
            if notificationsEnabled != profile.notificationsEnabled { update.notificationsEnabled = notificationsEnabled }
            return update
        }
    }

    /// Moving the account to a new number: type it, confirm it as understood, then enter the
    /// code sent to it.
    public struct PhoneChange: Equatable, Sendable {
        public var text: String
        /// The number read from ``text``, waiting for "Send a code to this number?" to be
        /// confirmed; `nil` while typing.
        public var confirming: PhoneNumber?
        /// The number a code was sent to; the code is being entered.
        public var codeSentTo: PhoneNumber?
        public var codeText: String

        public init(text: String, confirming: PhoneNumber? = nil, codeSentTo: PhoneNumber? = nil, codeText: String = "") {
            self.text = text
            self.confirming = confirming
            self.codeSentTo = codeSentTo
            self.codeText = codeText
        }
    }
}
