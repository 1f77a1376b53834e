// This target's tests live beside this file.
