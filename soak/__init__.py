"""`make soak`: a local cloud used for half an hour the way operators use the plugin at night,
with a service killed every two minutes (see __main__)."""
