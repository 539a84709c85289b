print("proxy-bench: scenarios land with the benchmark issue")
