"""What a face shows: the seat's table model (all that one seat may see) and a profile's rules in words."""
