import Foundation
import LifeSignalDomain

extension OnboardingFeature {
    public struct State: Equatable, Sendable {
        /// The screens of onboarding, in the order they are shown.
        public enum Step: Int, CaseIterable, Comparable, Sendable {
            case names
            case note
            case interval
            case reminder

            public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

            var next: Step? { Step(rawValue: rawValue + 1) }
            var previous: Step? { Step(rawValue: rawValue - 1) }
        }

        public var step: Step
        /// As typed; trimmed only when checked and sent, so the text field never jumps.
        public var firstName: String
        public var lastName: String
        public var emergencyNote: String
        public var interval: CheckInInterval
        public var reminderLead: ReminderLead
        /// The profile and settings are being saved; navigation is frozen until they are.
        public var isSaving: Bool
        /// Why the current step cannot be left, or why saving failed.
        public var errorMessage: String?

        public init(
            step: Step = .names, firstName: String = "", lastName: String = "", emergencyNote: String = "",
            interval: CheckInInterval = .default, reminderLead: ReminderLead = .default, isSaving: Bool = false,
            errorMessage: String? = nil
        ) {
            self.step = step
            self.firstName = firstName
            self.lastName = lastName
            self.emergencyNote = emergencyNote
            self.interval = interval
            self.reminderLead = reminderLead
            self.isSaving = isSaving
            self.errorMessage = errorMessage
        }

        /// "Next" reads "Finish" here: it saves everything.
        public var isLastStep: Bool { step.next == nil }

        /// The reminder leads that fit the chosen interval: a reminder must come after the
        /// interval starts, so a lead as long as the interval is never offered.
        public var leadChoices: [ReminderLead] {
            ReminderLead.allCases.filter { CheckInSettings(interval: interval, reminderLead: $0).isValid }
        }

        /// Characters left in the emergency note (negative when over), for the counter.
        public var noteCharactersLeft: Int {
            ProfileFieldRules.maximumNoteLength - ProfileFieldRules.trim(emergencyNote).count
        }

        /// Checks what `step` asks for; the first problem, worded for the person.
        func validate(_ step: Step) throws(DomainError) {
            switch step {
            case .names:
                _ = try ProfileFieldRules.firstName(firstName)
                _ = try ProfileFieldRules.optionalLastName(lastName)
            case .note:
                _ = try ProfileFieldRules.note(emergencyNote)
            case .interval:
                break
            case .reminder:
                try CheckInSettings(interval: interval, reminderLead: reminderLead).validate()
            }
        }

        /// The profile change to send, every step checked again: a state can be made to start
        /// on any step, and nothing unchecked may reach the server.
        ///
        /// An empty last name is left out rather than sent: it is optional, and the server
        /// accepts only a 2–50 character one.
        func profileUpdate() throws(DomainError) -> ProfileUpdate {
            for step in Step.allCases { try validate(step) }
            return ProfileUpdate(
                firstName: try ProfileFieldRules.firstName(firstName),
                lastName: try ProfileFieldRules.optionalLastName(lastName),
                emergencyNote: try ProfileFieldRules.note(emergencyNote))
        }
    }
}

extension CheckInSettings {
    fileprivate var isValid: Bool {
        do {
            try validate()
            return true
        } catch { return false }
    }
}
