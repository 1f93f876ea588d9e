"""coup.store"""
