"""Rule profiles: the shipped YAML files in this folder, and the registry that finds and
loads them by name, alias or path.
"""
