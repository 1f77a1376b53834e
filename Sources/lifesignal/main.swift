print("lifesignal")
