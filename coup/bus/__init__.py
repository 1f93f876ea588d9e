"""coup.bus"""
