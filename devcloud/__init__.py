"""A real local OpenStack cloud for developing, demonstrating and testing the plugin.

Keystone, Heat, Swift (with TempURL), RabbitMQ, PostgreSQL, memcached and Horizon run as
ordinary processes on 127.0.0.1, with every byte of their data under one directory. Nothing in
heat_deploy_dashboard imports this package.
"""
