// CaptureStrategies: the dispatch model and the three capture strategies.
